"""The outbox: a task is written to the database in the transaction that asks for it, published
to the broker once that transaction commits, and deleted once the broker has it.

When the broker is away the commit still stands (an upload is accepted, answered 201) and the
entry waits; the recovery loop that runs in every worker (``run_recovery_loop``) publishes what
waits every few seconds, so a task reaches the broker within seconds of its return. An entry is
claimed for a while before it is published (a conditional UPDATE), so two processes never
publish it twice; one that died while publishing leaves a claim that runs out.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Literal

from django.db import close_old_connections, connection
from django.db.models import F, Q

from . import clock
from .models import OutboxEntry

logger = logging.getLogger(__name__)

CLAIM = timedelta(seconds=30)
# A publication that fails is not retried at length inside a request: the loop does it later.
RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}

Outcome = Literal["published", "taken", "failed"]


def add(task: str, args: list[Any], kwargs: dict[str, Any], options: dict[str, Any]) -> int:
    entry = OutboxEntry.objects.create(
        task=task, args=args, kwargs=kwargs, options=options, created_at=clock.now()
    )
    return entry.pk


def _unclaimed(now: datetime) -> Q:
    return Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)


def publish(entry_id: int, *, now: datetime | None = None) -> Outcome:
    """Hand one entry to the broker: ``published`` (and deleted), ``taken`` (another process has
    it, or it is gone), or ``failed`` (the broker is away; the entry waits)."""
    from celery import current_app

    now = now or clock.now()
    claimed = OutboxEntry.objects.filter(_unclaimed(now), pk=entry_id).update(
        claimed_until=now + CLAIM, attempts=F("attempts") + 1
    )
    if not claimed:
        return "taken"
    entry = OutboxEntry.objects.get(pk=entry_id)
    try:
        current_app.tasks[entry.task].apply_async(
            entry.args, entry.kwargs, retry=True, retry_policy=RETRY_POLICY, **entry.options
        )
    except Exception as error:  # the broker's client raises several kinds when it is away
        logger.warning("task %s not published (%s); the outbox keeps it", entry, error)
        OutboxEntry.objects.filter(pk=entry_id).update(claimed_until=None)
        return "failed"
    OutboxEntry.objects.filter(pk=entry_id).delete()
    return "published"


def publish_after_commit(entry_id: int) -> None:
    try:
        publish(entry_id)
    except Exception:  # the database: the loop publishes it later
        logger.exception("task %s of the outbox not published after the commit", entry_id)


def publish_waiting(
    *, now: datetime | None = None, older_than: timedelta = timedelta(seconds=2), limit: int = 500
) -> int:
    """Publish the entries older than ``older_than`` that nobody is publishing; stop at the first
    failure (the broker is away). Answers how many were published."""
    now = now or clock.now()
    waiting = (
        OutboxEntry.objects.filter(_unclaimed(now), created_at__lt=now - older_than)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    published = 0
    for pk in list(waiting):
        outcome = publish(pk, now=now)
        if outcome == "failed":
            break
        published += outcome == "published"
    return published


def run_recovery_loop(
    step: Callable[[], object], stop: threading.Event, interval: float, name: str = "recovery"
) -> None:
    """Call ``step`` every ``interval`` seconds until ``stop`` is set; an error (the database or
    the broker away) is logged and the next round tries again."""
    while not stop.is_set():
        try:
            close_old_connections()
            step()
        except Exception as error:
            logger.warning("%s: %s: %s", name, type(error).__name__, error)
            connection.close()
        stop.wait(interval)
    connection.close()
