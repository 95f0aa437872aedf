"""The world that test_pages.py and test_storage.py each build once for their module
(tests/module_world.py): the package's shared fixtures (PK with its training text, BASE and TOP
scored and analysed), the participant's site, and its run, analysed with the track."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from analysis import prepared
from bakeoff.models import Bakeoff, Submission, Track
from tests.factories import (
    WORKED_RUN,
    make_bakeoff,
    make_corpus,
    make_site,
    make_user,
    track,
    upload,
)
from tests.module_world import captured_on_commit

from .conftest import TRAINING


@dataclass
class Built:
    """The world as built once for the module: what the shared fixtures and ``mine`` gave."""

    organiser: User
    participant: User
    bakeoff: Bakeoff
    closed: Track
    mine: Submission


def build_world() -> Built:
    """The analysis caches are empty before and after, as the package's fresh_caches leaves them
    for every test."""
    prepared.clear()
    organiser, participant = make_user("olga", is_staff=True), make_user("pat")
    bakeoff = make_bakeoff(organiser=organiser)
    with captured_on_commit():
        corpus = make_corpus(bakeoff, training=TRAINING)
    closed = track(corpus, "closed")
    make_site(bakeoff, participant, [closed])
    mine = upload(participant, closed, WORKED_RUN, captured_on_commit)
    prepared.clear()
    return Built(organiser, participant, bakeoff, closed, mine)


# The shared fixtures a module takes from the world (``world``: ``mine`` is the run).
TAKEN = ("organiser", "participant", "bakeoff", "closed", "mine")
