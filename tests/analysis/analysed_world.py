"""The world that test_pages.py and test_storage.py each build once for their module
(tests/module_world.py): the package's shared fixtures (PK with its training text, BASE and TOP
scored and analysed), the participant's site, and its run, analysed with the track."""

from __future__ import annotations

from dataclasses import dataclass

from analysis import prepared
from bakeoff.models import Submission
from tests.factories import WORKED_RUN, upload
from tests.leaderboard.registered_world import Registered, registered
from tests.module_world import captured_on_commit

from .conftest import TRAINING


@dataclass
class Built(Registered):
    """The world as built once for the module: what the shared fixtures and ``mine`` gave."""

    mine: Submission


def build_world() -> Built:
    """The analysis caches are empty before and after, as the package's fresh_caches leaves them
    for every test."""
    prepared.clear()
    world = registered(captured_on_commit, training=TRAINING)
    mine = upload(world.participant, world.closed, WORKED_RUN, captured_on_commit)
    prepared.clear()
    return Built(**vars(world), mine=mine)


# The shared fixtures a module takes from the world (``world``: ``mine`` is the run).
TAKEN = ("organiser", "participant", "bakeoff", "closed", "mine")
