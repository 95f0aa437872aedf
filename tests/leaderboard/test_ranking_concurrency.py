"""Two scoring processes storing scores of one track at once (issue 25): the second never waits
for the first's ranking, and the track's standings still end with both runs, because the process
that holds the ranking ranks again after its commit until it has read every stored score."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.utils import timezone

import scoring
from bakeoff.models import Bakeoff, Score, Submission
from leaderboard import services
from leaderboard.models import TrackRanking, TrackStanding
from leaderboard.receivers import rank_the_track
from tests.factories import make_corpus, make_scored_runs, track

pytestmark = [pytest.mark.django_db(transaction=True)]


def store_and_rank(run: Submission, score: dict[str, Any]) -> Submission:
    """A score stored as the scoring task stores it: in a transaction that announces it."""
    with transaction.atomic():
        Score.objects.create(**score)
        rank_the_track(submission=run, now=timezone.now())
    return run


def test_a_score_stored_while_another_process_ranks_is_ranked_without_waiting(
    bakeoff: Bakeoff, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks that skip: PostgreSQL (SQLite writes one transaction at a time)")
    closed = track(make_corpus(bakeoff), "closed")
    make_scored_runs(closed, 6)
    # two more runs whose scores the two processes store (the rows they need, stored before)
    runs = make_scored_runs(closed, 2, seed=1, rank=False)
    scores = []
    for run in runs:
        score = Score.objects.get(submission=run)
        scores.append(model_to_dict(score, exclude=["id", "submission", "gold_version"]))
        scores[-1].update(submission=run, gold_version=score.gold_version)
        score.delete()
    holding, stored = threading.Event(), threading.Event()
    first: list[Submission] = []
    pairs = scoring.insignificant_pairs

    def slow_in_the_first(scores: dict[str, scoring.Score]) -> list[tuple[str, str]]:
        if threading.current_thread().name == "first":
            holding.set()  # it holds the track's ranking now
            assert stored.wait(30), "the second never stored its score"
        return pairs(scores)

    monkeypatch.setattr(scoring, "insignificant_pairs", slow_in_the_first)

    def first_process() -> None:
        try:
            first.append(store_and_rank(runs[0], scores[0]))
        finally:
            connection.close()

    thread = threading.Thread(target=first_process, name="first")
    thread.start()
    assert holding.wait(30)
    started = time.monotonic()
    second = store_and_rank(runs[1], scores[1])  # committed, its ranking left to the first
    waited = time.monotonic() - started
    stored.set()
    thread.join(30)
    assert not thread.is_alive() and first

    assert waited < 5  # it did not wait for the first's ranking
    ranked = set(TrackStanding.objects.filter(track=closed).values_list("submission", flat=True))
    assert {first[0].pk, second.pk} <= ranked
    ranking = TrackRanking.objects.get(track=closed)
    assert ranking.fingerprint == services.scores_fingerprint(closed.pk)
    assert ranking.ranked_runs == 8
