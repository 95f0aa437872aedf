"""Two processes changing one track's ranking at once (issue 25): each computes its ranking
without holding the track and never waits for the other's; a ranking is stored only if no other
was stored since it began, and a process whose ranking was not stored ranks again after its commit,
so the standings end with every change."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.utils import timezone

import scoring
from bakeoff.models import Bakeoff, Score, Submission
from leaderboard import services
from leaderboard import signals as leaderboard_signals
from leaderboard.models import TrackRanking, TrackStanding
from leaderboard.receivers import rank_again, rank_the_track
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


def withdraw_and_rank(run: Submission) -> None:
    """A withdrawal as the service stores it: in a transaction that announces it."""
    with transaction.atomic():
        Submission.objects.filter(pk=run.pk).update(withdrawn_at=timezone.now())
        rank_again(submission=run, now=timezone.now())


def a_score_to_store(run: Submission) -> dict[str, Any]:
    """The score of a ranked run made into one to store again (its row deleted, ranked again)."""
    score = Score.objects.get(submission=run)
    values = model_to_dict(score, exclude=["id", "submission", "gold_version"])
    values.update(submission=run, gold_version=score.gold_version)
    score.delete()
    services.rank_track(run.track_id)
    return values


def test_a_ranking_computed_before_another_was_stored_is_not_stored_over_it(
    bakeoff: Bakeoff, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("two processes at once: PostgreSQL (SQLite writes one transaction at a time)")
    closed = track(make_corpus(bakeoff), "closed")
    runs = make_scored_runs(closed, 6)
    late_score = a_score_to_store(runs[0])
    computing, withdrawn = threading.Event(), threading.Event()
    pairs = scoring.insignificant_pairs

    def slow_in_the_first(scores: dict[str, scoring.Score]) -> list[tuple[str, str]]:
        if threading.current_thread().name == "first":
            computing.set()  # its ranking read the scores with runs[1] not yet withdrawn
            assert withdrawn.wait(30), "the withdrawal never committed"
        return pairs(scores)

    monkeypatch.setattr(scoring, "insignificant_pairs", slow_in_the_first)

    def first_process() -> None:
        try:
            store_and_rank(runs[0], late_score)
        finally:
            connection.close()

    thread = threading.Thread(target=first_process, name="first")
    thread.start()
    assert computing.wait(30)
    started = time.monotonic()
    withdraw_and_rank(runs[1])  # ranked and committed while the first computes its ranking
    assert time.monotonic() - started < 5
    withdrawn.set()
    thread.join(30)
    assert not thread.is_alive()

    ranked = set(TrackStanding.objects.filter(track=closed).values_list("submission", flat=True))
    assert runs[0].pk in ranked
    assert runs[1].pk not in ranked  # the first's ranking, read before, was not stored over it
    ranking = TrackRanking.objects.get(track=closed)
    assert ranking.ranked_runs == 5
    assert ranking.fingerprint == services.scores_fingerprint(closed.pk)


def test_a_withdrawal_that_finds_the_track_being_stored_is_ranked_after_its_commit(
    bakeoff: Bakeoff, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks that skip: PostgreSQL (SQLite writes one transaction at a time)")
    closed = track(make_corpus(bakeoff), "closed")
    runs = make_scored_runs(closed, 6)
    late_score = a_score_to_store(runs[0])
    holding, release = threading.Event(), threading.Event()

    def hold_in_the_first(**_: Any) -> None:
        if threading.current_thread().name == "first":
            holding.set()  # the first holds the track's ranking: it stores a ranking read before
            assert release.wait(30), "never released"

    leaderboard_signals.track_ranked.connect(hold_in_the_first)
    errors: list[BaseException] = []

    def in_a_thread(name: str, work: Callable[[], object]) -> threading.Thread:
        def run() -> None:
            try:
                work()
            except BaseException as error:
                errors.append(error)
            finally:
                connection.close()

        thread = threading.Thread(target=run, name=name)
        thread.start()
        return thread

    try:
        first = in_a_thread("first", lambda: store_and_rank(runs[0], late_score))
        assert holding.wait(30)
        second = in_a_thread("withdrawal", lambda: withdraw_and_rank(runs[1]))

        def committed() -> bool:
            return Submission.objects.filter(pk=runs[1].pk, withdrawn_at__isnull=False).exists()

        deadline = time.monotonic() + 30
        while not committed() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert committed()  # without its ranking: the first holds the track
        release.set()
        first.join(30)
        second.join(30)
        assert not first.is_alive() and not second.is_alive() and not errors
    finally:
        release.set()
        leaderboard_signals.track_ranked.disconnect(hold_in_the_first)

    ranked = set(TrackStanding.objects.filter(track=closed).values_list("submission", flat=True))
    assert runs[0].pk in ranked
    assert runs[1].pk not in ranked  # the same scores, yet ranked again after the withdrawal
    assert TrackRanking.objects.get(track=closed).ranked_runs == 5
