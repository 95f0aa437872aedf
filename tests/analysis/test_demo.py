"""On the demo corpus (People's Daily, with a training text): the paper's signs hold for BASE."""

from __future__ import annotations

import pytest

from analysis.models import CriterionDiscrepancy, RunAnalysis, TrackAnalysis
from bakeoff import services
from bakeoff.demo_corpus import build_demo_corpus
from bakeoff.models import Bakeoff
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db


def test_the_demo_corpus_is_analysed_with_all_seven_attributes(
    bakeoff: Bakeoff, on_commit: OnCommit
) -> None:
    demo = build_demo_corpus()
    with on_commit():
        corpus = services.do_create_corpus(
            bakeoff,
            services.CorpusFiles(
                gold=demo.gold_text.encode(),
                test_text=demo.test_text.encode(),
                training_words=demo.training_words.encode(),
                training_text=demo.training_text.encode(),
            ),
            name="People's Daily",
            abbreviation="PD",
            institution="Peking University",
            conditions=("closed",),
        )
    track = corpus.tracks.get()
    base = RunAnalysis.objects.get(submission__track=track, submission__kind="baseline")
    statistics = base.buckets["statistics"]
    assert statistics["wLen"]["spearman"] < 0 < statistics["wCon"]["spearman"]  # Table 3 signs
    assert not base.buckets["unavailable"]
    profile = {p["attribute"]: p for p in TrackAnalysis.objects.get(track=track).profile}
    assert profile["wLen"]["alpha_mu"] == pytest.approx(1.6, abs=0.2)
    assert CriterionDiscrepancy.objects.get(training_corpus=corpus).value > 0.7
