"""One base for every Celery task of the platform: late acks, transient retries, failure marks."""

from __future__ import annotations

import pytest
from celery import shared_task
from django.db import OperationalError

from bakeoff import task_names as bakeoff_task_names
from bakeoff.task_base import TRANSIENT, PlatformTask, enqueue_on_commit
from config.celery import app
from psychometric import task_names as psychometric_task_names

PLATFORM = ("bakeoff.", "leaderboard.", "analysis.", "psychometric.", "notifications.")

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


# Every task of the platform and its policy: the retries (what is transient for it, how many, how
# spaced) and the function that records a failure on its subject (None: the task has no subject
# with a state, so a crash is only logged). A new task fails the test until it is listed here.
STANDARD = (TRANSIENT, 12, 2, 60)
MAIL = ((*TRANSIENT, OSError), 5, 30, 1800)  # an SMTP server away for half an hour, then failed
EXPECTED: dict[str, tuple[tuple[tuple[type[Exception], ...], int, int, int], str | None]] = {
    "bakeoff.tasks.score_submission": (STANDARD, "bakeoff.tasks._fail_submission"),
    "bakeoff.tasks.score_domains": (STANDARD, None),
    "bakeoff.tasks.sweep_stuck_submissions": (STANDARD, None),
    "bakeoff.tasks.announce_milestones": (STANDARD, None),
    "analysis.tasks.analyse_track": (STANDARD, "analysis.tasks._record_failure"),
    "psychometric.tasks.build_committee": (STANDARD, "psychometric.tasks._fail_committee"),
    "psychometric.tasks.train_member": (STANDARD, "psychometric.tasks._fail_member"),
    "psychometric.tasks.assemble_committee": (STANDARD, "psychometric.tasks._fail_committee"),
    "psychometric.tasks.apply_committee": (STANDARD, None),
    "psychometric.tasks.balance_score": (STANDARD, None),
    "notifications.tasks.send_mail": (MAIL, "notifications.tasks._fail_mail"),
    # rendering a published version ahead of its readers: a failure leaves the first reader to
    # render it
    "leaderboard.tasks.render_published": (STANDARD, None),
}


def test_every_task_of_the_platform_has_the_base_and_its_policy() -> None:
    app.loader.import_default_modules()
    ours = {name: task for name, task in app.tasks.items() if name.startswith(PLATFORM)}
    assert sorted(ours) == sorted(EXPECTED)
    for name, task in ours.items():
        (transient, retries, backoff, backoff_max), fail = EXPECTED[name]
        assert isinstance(task, PlatformTask), name
        assert task.acks_late and task.reject_on_worker_lost, name
        assert task.autoretry_for == transient, name
        assert (task.max_retries, task.retry_backoff, task.retry_backoff_max) == (
            retries,
            backoff,
            backoff_max,
        ), name
        marks_with = type(task).fail
        assert (f"{marks_with.__module__}.{marks_with.__name__}" if marks_with else None) == fail


def test_every_task_a_service_queues_by_name_is_a_platform_task() -> None:
    app.loader.import_default_modules()
    for names in (bakeoff_task_names, psychometric_task_names):
        queued = [value for key, value in vars(names).items() if key.isupper()]
        assert queued
        for name in queued:
            assert isinstance(app.tasks[name], PlatformTask), name


def test_a_task_queued_by_a_name_no_task_has_is_refused() -> None:
    with pytest.raises(KeyError):
        enqueue_on_commit("bakeoff.tasks.no_such_task", 1)


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
