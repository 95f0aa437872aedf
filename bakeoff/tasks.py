"""Celery tasks: thin shells around services. They take primary keys and are idempotent."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import clock, services

logger = logging.getLogger(__name__)

# Only errors that may pass are retried: the database going away for a moment.
TRANSIENT = (OperationalError, InterfaceError)

# Every task of the platform: acknowledged once done, so a worker that dies hands it back, and
# retried a few times for transient errors only.
TASK_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT,
    "max_retries": 3,
    "retry_backoff": 5,
    "retry_jitter": False,
}


@shared_task(bind=True, **TASK_OPTIONS)
def score_submission(self: object, submission_id: int) -> None:
    try:
        services.do_score_submission(submission_id)
    except TRANSIENT:
        raise
    except Exception as error:
        # A bug must not leave the run queued for ever: fail it with a reason, and log the trace.
        logger.exception("scoring submission %s failed", submission_id)
        services.do_mark_failed(
            submission_id,
            f"Internal error while scoring ({type(error).__name__}); "
            "the organisers have been told.",
            now=clock.now(),
        )


@shared_task(acks_late=True)
def sweep_stuck_submissions() -> list[int]:
    return services.do_sweep_stuck()
