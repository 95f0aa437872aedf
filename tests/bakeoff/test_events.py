"""bakeoff announces what happened with signals; the apps above it listen (bakeoff imports none)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from pytest_django import DjangoCaptureOnCommitCallbacks

from analysis.models import TrackAnalysis
from bakeoff import services, signals
from bakeoff.models import Bakeoff, GoldVersion, Score, Submission
from leaderboard.models import TrackStanding
from tests.factories import GOLD, NOW, WORKED_RUN, make_corpus, make_site, track

pytestmark = pytest.mark.django_db


@pytest.fixture
def run(pinned_bakeoff: Bakeoff, participant: User) -> Submission:
    closed = track(make_corpus(pinned_bakeoff, now=NOW))
    make_site(pinned_bakeoff, participant, [closed])
    return services.submit_run(participant, closed, WORKED_RUN.encode(), now=NOW)


@pytest.fixture
def heard() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """The calls of every signal of bakeoff, received after the apps' own receivers."""
    calls: list[tuple[str, dict[str, Any]]] = []

    def listen(name: str) -> Callable[..., None]:
        def receiver(sender: object, **kwargs: Any) -> None:
            kwargs["in_transaction"] = transaction.get_connection().in_atomic_block
            calls.append((name, kwargs))

        return receiver

    receivers = {name: listen(name) for name in ("score_stored", "gold_version_added")}
    for name, receiver in receivers.items():
        getattr(signals, name).connect(receiver)
    yield calls
    for name, receiver in receivers.items():
        getattr(signals, name).disconnect(receiver)


def test_the_apps_above_bakeoff_listen_to_a_stored_score() -> None:
    listeners = [entry[1]() for entry in signals.score_stored.receivers]  # (key, weakref, ...)
    assert [f"{r.__module__}.{r.__name__}" for r in listeners] == [
        "leaderboard.receivers.rank_the_track",
        "psychometric.receivers.balance_score",
        "notifications.receivers.run_scored",
    ]


def test_storing_a_score_sends_score_stored_inside_the_transaction(
    run: Submission, heard: list[tuple[str, dict[str, Any]]]
) -> None:
    score = services.do_score_submission(run.pk, now=NOW)
    assert score is not None
    [kwargs] = [kwargs for name, kwargs in heard if name == "score_stored"]
    assert kwargs["score"] == score
    assert kwargs["submission"] == run
    assert kwargs["gold"] == score.gold_version
    assert kwargs["now"] == NOW
    assert kwargs["in_transaction"]


def test_the_track_is_ranked_in_the_transaction_that_stores_the_score(run: Submission) -> None:
    def ranked_already(sender: object, submission: Submission, **kwargs: Any) -> NoReturn:
        assert TrackStanding.objects.filter(submission=submission).exists()  # same transaction
        raise RuntimeError("the transaction is rolled back")

    signals.score_stored.connect(ranked_already)
    try:
        with pytest.raises(RuntimeError):
            services.do_score_submission(run.pk, now=NOW)
    finally:
        signals.score_stored.disconnect(ranked_already)
    assert not Score.objects.filter(submission=run).exists()
    assert not TrackStanding.objects.filter(submission=run).exists()


def test_the_analysis_is_queued_for_after_the_commit(
    run: Submission, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.do_score_submission(run.pk, now=NOW)
    assert TrackStanding.objects.filter(submission=run).exists()
    assert not TrackAnalysis.objects.exists()
    for callback in callbacks:
        callback()
    assert TrackAnalysis.objects.filter(track=run.track).exists()


def test_a_new_corpus_announces_its_first_gold_version(
    pinned_bakeoff: Bakeoff, heard: list[tuple[str, dict[str, Any]]]
) -> None:
    corpus = make_corpus(pinned_bakeoff, now=NOW)
    [kwargs] = [kwargs for name, kwargs in heard if name == "gold_version_added"]
    assert kwargs["gold"] == GoldVersion.objects.get(corpus=corpus, number=1)
    assert kwargs["corpus"] == corpus
    assert kwargs["in_transaction"]


def test_a_corrected_gold_announces_itself(
    pinned_bakeoff: Bakeoff, heard: list[tuple[str, dict[str, Any]]]
) -> None:
    corpus = make_corpus(pinned_bakeoff, now=NOW)
    gold = services.do_add_gold_version(corpus, GOLD.encode(), now=NOW)
    added = [kwargs for name, kwargs in heard if name == "gold_version_added"]
    assert [kwargs["gold"].number for kwargs in added] == [1, 2]
    assert added[-1]["gold"] == gold
    assert added[-1]["now"] == NOW
