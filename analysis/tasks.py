"""Celery task: a thin shell around ``services.do_analyse_track`` (pk argument, idempotent)."""

from __future__ import annotations

import logging

from celery import shared_task

from bakeoff.tasks import TASK_OPTIONS, TRANSIENT

from . import services

logger = logging.getLogger(__name__)


@shared_task(bind=True, **TASK_OPTIONS)
def analyse_track(self: object, track_id: int) -> None:
    try:
        services.do_analyse_track(track_id)
    except TRANSIENT:
        raise
    except Exception as error:
        # The scores stand without their analysis: record why, for the pages, and log the trace.
        logger.exception("analysing track %s failed", track_id)
        services.do_record_failure(
            track_id, f"Internal error while analysing ({type(error).__name__})."
        )
