"""Celery tasks of the leaderboard: thin shells around services, taking primary keys."""

from __future__ import annotations

from celery import shared_task

from bakeoff import clock
from bakeoff.task_base import PlatformTask

from . import served


@shared_task(base=PlatformTask)
def render_published(version_id: int) -> int:
    return served.render_version(version_id, clock.now())
