"""Celery task: a thin shell around ``services.do_analyse_track`` (pk argument, idempotent)."""

from __future__ import annotations

from celery import shared_task

from bakeoff.task_base import PlatformTask

from . import failures, services


def _record_failure(track_id: int, error: Exception) -> None:
    # The scores stand without their analysis: record why, for the pages (the trace is logged).
    services.do_record_failure(
        track_id, failures.failure(failures.INTERNAL_ERROR, {"error": type(error).__name__})
    )


@shared_task(base=PlatformTask, fail=_record_failure)
def analyse_track(track_id: int) -> None:
    services.do_analyse_track(track_id)
