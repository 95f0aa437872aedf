"""The cases of tests/leaderboard/test_published_reads.py that build a bakeoff of their own: a
committee before publication, a publication before any committee. That module's tests read one
world built once, published with a committee (its ``built``): these may not start from it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client

from bakeoff.models import Bakeoff, Corpus, Site, Track
from leaderboard.models import TrackStanding
from tests.factories import WORKED_RUN, make_corpus, publish, upload
from tests.hints import OnCommit
from tests.psychometric.factories import TRAINING, build

from .test_published_reads import T, balanced, fresh_caches

pytestmark = pytest.mark.django_db

__all__ = ["fresh_caches"]  # the analysis kept quick, its caches emptied: a fixture of that module


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    """As that module's: with a segmented training text, for a CRF committee."""
    with on_commit():
        return make_corpus(bakeoff, training=TRAINING)


def test_a_committee_before_publication_mentions_no_erratum(
    bakeoff: Bakeoff,
    corpus: Corpus,
    organiser: User,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    organiser.email = "org@example.org"
    organiser.save()
    build(corpus, on_commit, k=2, seed=7)
    (told,) = [m for m in mailoutbox if "org@example.org" in m.to]
    assert "complete" in str(told.body) and "erratum" not in str(told.body)


def test_a_run_no_committee_had_rated_says_so(
    bakeoff: Bakeoff,
    corpus: Corpus,
    closed: Track,
    participant: User,
    site: Site,
    on_commit: OnCommit,
) -> None:
    run = upload(participant, closed, WORKED_RUN, on_commit)
    with on_commit():
        publish(bakeoff)
    build(corpus, on_commit, k=2, seed=7)
    assert TrackStanding.objects.get(submission=run).f_b is not None  # live, not published
    section = balanced(Client(), f"{T}runs/{run.pk}/")
    assert "No committee had rated this corpus's gold words when results version 1" in section
    assert "F<sub>b</sub></strong>" not in section
