"""Celery tasks: thin shells around services. They take primary keys and are idempotent."""

from __future__ import annotations

from celery import shared_task

from . import clock, failures, services
from .failures import Failure
from .task_base import PlatformTask


def _fail_submission(submission_id: int, error: Exception) -> None:
    # A bug must not leave the run queued for ever: fail it with a reason (the trace is logged).
    services.do_mark_failed(
        submission_id,
        Failure(failures.INTERNAL_ERROR, {"error": type(error).__name__}),
        now=clock.now(),
        internal=True,
    )


@shared_task(base=PlatformTask, fail=_fail_submission)
def score_submission(submission_id: int) -> None:
    request = score_submission.request
    # The task's id is its claim on the run (a task redelivered after its worker died keeps it).
    token = "" if request.is_eager else str(request.id or "")
    services.do_score_submission(submission_id, token=token)


@shared_task(base=PlatformTask)
def score_domains(corpus_id: int) -> int:
    return services.do_score_domains(corpus_id)


@shared_task(base=PlatformTask)
def sweep_stuck_submissions() -> list[int]:
    return services.do_sweep_stuck()


@shared_task(base=PlatformTask)
def announce_milestones() -> list[tuple[str, str]]:
    return services.do_announce_milestones()
