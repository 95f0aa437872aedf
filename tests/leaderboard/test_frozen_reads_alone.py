"""The case of tests/leaderboard/test_frozen_reads.py that builds a bakeoff of its own: before
publication. That module's tests read one world built once, published (its ``built``): this one
may not start from it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff.models import Bakeoff, Corpus, Site, Track
from tests.factories import WORKED_RUN, make_corpus, upload
from tests.hints import OnCommit

from .test_frozen_reads import API, api_for, live_f

pytestmark = pytest.mark.django_db


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    """As that module's: PK with its lines labelled by domain; BASE and TOP scored."""
    with on_commit():
        return make_corpus(bakeoff, domains="news\nweibo\nnews\n")


def test_before_publication_the_api_gives_a_site_its_live_scores(
    bakeoff: Bakeoff, closed: Track, participant: User, site: Site, on_commit: OnCommit
) -> None:
    run = upload(participant, closed, WORKED_RUN, on_commit)
    body = api_for(participant).get(f"{API}{run.pk}/").json()
    assert "results_version" not in body and "live_scores" not in body
    assert (body["scores"]["f"], body["gold_version"]) == (live_f(run), 1)
