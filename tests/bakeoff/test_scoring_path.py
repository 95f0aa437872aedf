"""From an accepted run to stored scores: the task, its idempotence, failures with reasons."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import NoReturn

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from bakeoff import services, tasks
from bakeoff.models import Bakeoff, Score, Site, Submission, SubmissionStatus, Track
from tests.factories import NOW, PERFECT_RUN, WORKED_RUN, make_corpus, track
from tests.hints import OnCommit

# Also in the SQLite pass of make test: the embedded mode, as `make demo` runs it.
pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


def upload(participant: User, t: Track, text: str = WORKED_RUN) -> Submission:
    return services.submit_run(participant, t, text.encode(), now=NOW)


def test_it_scores_a_run_after_commit(
    participant: User, pk_closed: Track, team: Site, on_commit: OnCommit
) -> None:
    with on_commit():
        submission = upload(participant, pk_closed)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED
    score = submission.current_score()
    assert score is not None
    # docs/measures/scoring.md's worked example on line 1; lines 2 and 3 are perfect: N = 6 + 4 + 4,
    # c = 3 + 4 + 4.
    assert (score.true_words, score.test_words, score.correct) == (14, 13, 11)
    assert score.recall == pytest.approx(11 / 14)
    assert score.result["signature"]["gold_checksum"]
    assert "scorer:" in score.signature


def test_it_counts_oov_words(
    participant: User, pk_closed: Track, team: Site, on_commit: OnCommit
) -> None:
    with on_commit():
        submission = upload(participant, pk_closed, PERFECT_RUN)
    score = submission.current_score()
    assert score is not None
    assert (score.oov_words, score.correct_oov) == (2, 2)  # 工作, 天气
    assert score.f == 1.0


def test_it_does_not_queue_before_commit(participant: User, pk_closed: Track, team: Site) -> None:
    submission = upload(participant, pk_closed)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.QUEUED
    assert not submission.scores.exists()


def test_running_the_task_twice_leaves_one_score_row(
    participant: User, pk_closed: Track, team: Site
) -> None:
    submission = upload(participant, pk_closed)
    tasks.score_submission.apply(args=(submission.pk,))
    tasks.score_submission.apply(args=(submission.pk,))
    assert Score.objects.filter(submission=submission).count() == 1


def test_a_run_left_in_scoring_is_scored_again(
    participant: User, pk_closed: Track, team: Site, settings: Settings
) -> None:
    submission = upload(participant, pk_closed)
    assert services.do_claim(submission.pk, now=NOW, token="dead")  # a worker took it, then died
    assert services.do_score_submission(submission.pk, now=NOW, token="other") is None  # leased
    lease_over = NOW + timedelta(seconds=settings.BAKEOFF_SCORING_LEASE_SECONDS + 1)
    assert services.do_score_submission(submission.pk, now=lease_over) is not None
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED
    assert submission.attempts == 2


def test_it_fails_with_a_reason_when_the_task_crashes(
    participant: User, pk_closed: Track, team: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    submission = upload(participant, pk_closed)

    def crash(*args: object, **kwargs: object) -> NoReturn:
        raise RuntimeError("boom")

    monkeypatch.setattr("bakeoff.services.recovery.scoring.score_run_details", crash)
    tasks.score_submission.apply(args=(submission.pk,))
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.FAILED
    assert "Internal error" in submission.reason


def test_it_fails_a_run_the_scorer_rejects(participant: User, pk_closed: Track, team: Site) -> None:
    submission = upload(participant, pk_closed)
    Submission.objects.filter(pk=submission.pk).update(file=submission.file.name)
    submission.file.open("wb").write("结婚 的\n".encode())  # damaged on disk after acceptance
    services.do_score_submission(submission.pk, now=NOW)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.FAILED
    assert "could not be scored" in submission.reason


def test_the_sweep_requeues_a_stuck_run(
    participant: User, pk_closed: Track, team: Site, settings: Settings
) -> None:
    submission = upload(participant, pk_closed)
    services.do_claim(submission.pk, now=NOW)
    later = NOW + timedelta(seconds=settings.BAKEOFF_STUCK_AFTER_SECONDS + 1)
    assert submission.pk in services.do_sweep_stuck(now=later)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.QUEUED


def test_the_sweep_leaves_a_recent_run(participant: User, pk_closed: Track, team: Site) -> None:
    submission = upload(participant, pk_closed)
    assert submission.pk not in services.do_sweep_stuck(now=NOW + timedelta(seconds=5))


def test_the_sweep_fails_a_run_tried_too_often(
    participant: User, pk_closed: Track, team: Site, settings: Settings
) -> None:
    submission = upload(participant, pk_closed)
    for attempt in range(settings.BAKEOFF_MAX_SCORING_ATTEMPTS):
        # Each time a worker took it and died: the next takes it once the lease has run out.
        assert services.do_claim(submission.pk, now=NOW + attempt * timedelta(minutes=1))
    services.do_sweep_stuck(now=NOW + timedelta(days=1))
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.FAILED
    assert "without finishing" in submission.reason


def test_the_gold_index_is_built_once_per_gold_version(
    pinned_bakeoff: Bakeoff, settings: Settings, tmp_path: Path
) -> None:
    settings.BAKEOFF_CACHE_DIR = tmp_path / "cache"
    corpus = make_corpus(pinned_bakeoff, now=NOW)
    gold = corpus.current_gold()
    assert gold is not None
    services.gold_index_for(gold)
    cached = list((tmp_path / "cache" / "gold-index").glob("*.npz"))
    assert len(cached) == 1


def test_the_gold_index_is_local_and_rebuilt_when_missing(
    pinned_bakeoff: Bakeoff, settings: Settings, tmp_path: Path
) -> None:
    """Each worker keeps its own copy, keyed by checksums, outside the stored files."""
    from bakeoff.services import gold_index

    settings.BAKEOFF_CACHE_DIR = tmp_path / "cache"
    gold = make_corpus(pinned_bakeoff, now=NOW).current_gold()
    assert gold is not None
    path = gold_index.gold_index_path(gold)
    assert path.is_relative_to(tmp_path / "cache")
    assert not path.is_relative_to(settings.MEDIA_ROOT)
    first = services.gold_index_for(gold)
    path.unlink()
    gold_index._gold_index.cache_clear()
    rebuilt = services.gold_index_for(gold)
    assert path.exists()
    assert rebuilt.checksum == first.checksum


def test_reference_runs_are_scored(pinned_bakeoff: Bakeoff, on_commit: OnCommit) -> None:
    with on_commit():
        corpus = make_corpus(pinned_bakeoff, abbreviation="MSR", now=NOW)
    base = track(corpus).submissions.get(kind="baseline").current_score()
    top = track(corpus).submissions.get(kind="topline").current_score()
    assert top is not None and top.f == 1.0
    assert base is not None and base.f is not None and base.f < 1.0


def test_the_scoring_task_survives_a_killed_worker() -> None:
    """A message is acknowledged after the task, and given back if the worker process dies."""
    assert tasks.score_submission.acks_late
    assert tasks.score_submission.reject_on_worker_lost
    assert tasks.score_submission.max_retries == 12  # with backoff: more than 5 minutes
