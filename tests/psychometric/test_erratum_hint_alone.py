"""The case of tests/psychometric/test_erratum_hint.py that starts from a bakeoff of its own,
with no committee: that module's tests read one world built once, with a committee and its F_b
published (its ``built``), which this one may not start from."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff.models import Bakeoff, Corpus, Site, Track
from tests.factories import WORKED_RUN, close_submissions, publish, upload
from tests.hints import ClientFor, OnCommit

from .test_erratum_hint import correct_the_gold, hint, page

pytestmark = pytest.mark.django_db


def test_an_erratum_without_a_committee_before_suggests_nothing(
    client_for: ClientFor,
    organiser: User,
    bakeoff: Bakeoff,
    corpus: Corpus,
    closed: Track,
    site: Site,
    participant: User,
    on_commit: OnCommit,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    close_submissions(bakeoff)
    publish(bakeoff)
    correct_the_gold(corpus, on_commit)  # no F_b before, none after: nothing dropped
    text = page(client_for(organiser))
    assert "gold version 1 → 2" in text and hint(text) == ""
