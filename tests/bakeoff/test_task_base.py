"""One base for every Celery task of the platform: late acks, transient retries, failure marks."""

from __future__ import annotations

import pytest
from celery import shared_task
from django.db import OperationalError

from bakeoff.task_base import TRANSIENT, PlatformTask
from config.celery import app

PLATFORM = ("bakeoff.", "leaderboard.", "analysis.", "psychometric.")

calls: list[object] = []
marks: list[tuple[int, str]] = []


def mark(pk: int, error: Exception) -> None:
    marks.append((pk, type(error).__name__))


@shared_task(base=PlatformTask, fail=mark, name="tests.crashes")
def crashes(pk: int) -> None:
    calls.append(pk)
    raise KeyError(pk)


@shared_task(base=PlatformTask, fail=mark, name="tests.loses_the_database")
def loses_the_database(pk: int) -> None:
    calls.append(pk)
    raise OperationalError("server closed the connection unexpectedly")


@shared_task(base=PlatformTask, name="tests.crashes_unmarked")
def crashes_unmarked(pk: int) -> None:
    raise KeyError(pk)


@pytest.fixture(autouse=True)
def fresh() -> None:
    calls.clear()
    marks.clear()


def test_every_task_of_the_platform_has_the_base() -> None:
    app.loader.import_default_modules()
    ours = {name: task for name, task in app.tasks.items() if name.startswith(PLATFORM)}
    assert set(ours) >= {
        "bakeoff.tasks.score_submission",
        "bakeoff.tasks.sweep_stuck_submissions",
        "analysis.tasks.analyse_track",
        "psychometric.tasks.build_committee",
        "psychometric.tasks.apply_committee",
        "psychometric.tasks.balance_score",
    }
    for name, task in ours.items():
        assert isinstance(task, PlatformTask), name
        assert task.acks_late and task.reject_on_worker_lost, name
        assert task.autoretry_for == TRANSIENT and task.max_retries == 12, name


def test_a_crash_marks_the_subject_failed_and_is_not_retried() -> None:
    result = crashes.apply(args=(7,))
    assert marks == [(7, "KeyError")]
    assert calls == [7]
    assert result.successful()  # marked: nothing left for the worker to report


def test_a_transient_error_is_retried_then_left_to_the_sweep() -> None:
    result = loses_the_database.apply(args=(7,))
    assert calls == [7] * 13  # the first attempt and twelve retries (over 8 minutes in a worker)
    assert marks == []  # the subject stays queued: the sweep takes it again later
    assert result.failed()


def test_a_crash_of_a_task_without_a_mark_propagates() -> None:
    assert crashes_unmarked.apply(args=(7,)).failed()
