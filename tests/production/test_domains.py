"""Domain labels added to a corpus whose runs are scored: the real workers (scoring, analysis)
give every stored score its figures per domain and every run its buckets per domain, reading the
labels from object storage."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from analysis.models import RunAnalysis
from bakeoff import services
from bakeoff.models import Score, Track

from .test_worker import finished, pku  # noqa: F401  (the PKU track fixture)

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_labels_added_later_reach_every_score_through_the_workers(
    pku: Track,  # noqa: F811
    wait_for: Callable[..., None],
) -> None:
    for submission in pku.submissions.all():
        wait_for(lambda s=submission: finished(s.pk), what=f"{submission} to be scored")
    corpus = pku.corpus
    # PKU's 1,945 test lines: the first 1,000 labelled "first", the others "second"
    labels = "first\n" * 1000 + "second\n" * 945
    services.do_set_domain_labels(corpus, labels.encode())
    scores = Score.objects.filter(submission__track=pku, superseded_at__isnull=True)

    def labelled() -> bool:
        return all("domains" in score.result for score in scores.all())  # read again each time

    wait_for(labelled, timeout=120, what="the figures per domain of BASE and TOP")
    for score in scores.all():
        first, second = score.result["domains"]
        assert (first["lines"], second["lines"]) == (1000, 945)
        assert first["true_words"] + second["true_words"] == score.true_words == 104372
        assert first["correct"] + second["correct"] == score.correct
        assert score.result["domain_labels"] == corpus.domain_labels_checksum

    def analysed() -> bool:
        runs = RunAnalysis.objects.filter(submission__track=pku)
        return runs.count() == 2 and all(
            (run.domains or {}).get("labels") == corpus.domain_labels_checksum for run in runs
        )

    wait_for(analysed, timeout=300, what="the buckets per domain of BASE and TOP")
