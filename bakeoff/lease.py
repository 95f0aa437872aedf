"""The lease: how a worker holds a job, so that a job whose worker died is taken again.

One design for every job a task works on for a while: a run's scoring (``Submission``), a
committee's build and assembly (``psychometric.Committee``), a committee member's training
(``psychometric.CommitteeMember``). The job's row has a ``claim`` (the id of the task holding it)
and a ``lease_until``:

* a task takes the job by a conditional UPDATE (``free``): the job is waiting, or held under a
  lease that ran out (its worker died), or held by this very task (the broker redelivered it);
* while it works, a thread renews the lease every third of its length (``renewing``); a worker
  that dies stops renewing it;
* the recovery loop of every worker (``config/celery.py``) queues again each job whose lease ran
  out, and a job taken too often without finishing fails with a translated reason.

Eager tasks (no broker) have no id: their claim is empty, and nothing renews their lease.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import Q, QuerySet

from . import clock

logger = logging.getLogger(__name__)


def seconds() -> int:
    return settings.BAKEOFF_SCORING_LEASE_SECONDS


def until(now: datetime) -> datetime:
    """The end of a lease taken or renewed at ``now``."""
    return now + timedelta(seconds=seconds())


def free(waiting: Q, held: Q, *, now: datetime, token: str) -> Q:
    """The rows a task with claim ``token`` may take at ``now``: those ``waiting``, and those
    ``held`` whose lease ran out or that this task holds already (redelivered)."""
    return waiting | (held & (Q(lease_until__lt=now) | (Q(claim=token) & ~Q(claim=""))))


def ran_out(held: Q, *, now: datetime) -> Q:
    """The rows ``held`` by a worker that stopped renewing their lease: it died."""
    return held & Q(lease_until__lt=now)


@contextmanager
def renewing(rows: QuerySet[Any], token: str) -> Iterator[None]:
    """Renew the lease of ``rows`` (the job, as long as this task still holds it) while the block
    runs, every third of the lease; nothing to renew without a claim (an eager task)."""
    if not token:
        yield
        return
    stop = threading.Event()
    held = rows.filter(claim=token)

    def renew() -> None:
        try:
            while not stop.wait(seconds() / 3):
                held.update(lease_until=until(clock.now()))
        except Exception as error:
            logger.warning("lease of %s not renewed: %s", held.model.__name__, error)
        finally:
            connections.close_all()

    renewer = threading.Thread(target=renew, name=f"lease-{token}", daemon=True)
    renewer.start()
    try:
        yield
    finally:
        stop.set()
        renewer.join(timeout=10)
