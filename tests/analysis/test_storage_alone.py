"""The case of tests/analysis/test_storage.py that starts from a bakeoff of its own, with no
corpus: that module's tests read one world built once, with PK and a run (its ``built``), which
this one may not start from."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from analysis.models import RunAnalysis, TrackAnalysis
from bakeoff.models import Bakeoff
from scoring import NEEDS_TRAINING_TEXT, UNAVAILABLE_REASON
from tests.factories import make_corpus
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db


def test_without_training_text_four_attributes_are_unavailable(
    bakeoff: Bakeoff, participant: User, on_commit: OnCommit
) -> None:
    with on_commit():
        corpus = make_corpus(bakeoff, abbreviation="WL")  # a word list only, as icwb2
    track = corpus.tracks.get(condition="closed")
    run = RunAnalysis.objects.filter(submission__track=track).first()
    assert run is not None
    for name in NEEDS_TRAINING_TEXT:
        assert run.buckets["attributes"][name] is None
        assert run.buckets["unavailable"][name] == UNAVAILABLE_REASON
    assert run.buckets["signature"]["training_checksum"] is None
    profile = TrackAnalysis.objects.get(track=track).profile
    assert [p["attribute"] for p in profile] == ["wLen", "sLen", "oDen"]
