"""The base of every Celery task of the platform.

A task takes primary keys and calls a service; it is enqueued after the transaction that asked for
it commits (``task.delay_on_commit(pk)``, which runs it at once when no broker is configured). It
is acknowledged once done, so a worker that dies hands it back, and it is retried a few times, with
a growing delay, for transient database errors only.

Enqueued on commit, a task goes through the outbox (``bakeoff.outbox``): it is written to the
database in the caller's transaction and published after the commit; while the broker is away it
waits there, and the workers' recovery loop publishes it once the broker is back. A failure to
publish never undoes or fails the change that asked for the task.

Retries with a growing delay (2, 4, 8, ... 60 s, twelve of them: more than eight minutes in all)
outlast a database outage of five minutes.

A task whose subject has a state (a submission, a committee, a track's analysis) names a ``fail``
function: when the task crashes on anything but a transient error, the trace is logged and
``fail(pk, error)`` records a reason on the subject, so that it never stays queued for ever.

A service queues a task by its name (``enqueue_on_commit(SCORE_SUBMISSION, pk)``, the names in
``bakeoff.task_names``) rather than by importing it: a task module imports the services it wraps,
so services and tasks import in one direction, without a circle (tests/test_import_graph.py). Every
app imports its task module in ``AppConfig.ready()``, so that every process knows every task.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, ClassVar

from celery import current_app
from celery.contrib.django.task import DjangoTask
from celery.exceptions import Ignore, Reject, Retry
from django.db import InterfaceError, OperationalError, transaction

from . import outbox

logger = logging.getLogger(__name__)

# Only errors that may pass are retried: the database going away for a moment.
TRANSIENT = (OperationalError, InterfaceError)


class PlatformTask(DjangoTask[..., object]):
    acks_late = True
    reject_on_worker_lost = True
    autoretry_for = TRANSIENT
    max_retries = 12
    retry_backoff = 2
    retry_backoff_max = 60
    retry_jitter = False
    fail: ClassVar[Callable[[int, Exception], object] | None] = None

    def delay_on_commit(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        self.apply_async_on_commit(args, kwargs)

    def apply_async_on_commit(  # type: ignore[override]
        self,
        args: tuple[Any, ...] | list[Any] | None = None,
        kwargs: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        if self.app.conf.task_always_eager:  # no broker: run it in this process after the commit
            call = functools.partial(self.apply_async, tuple(args or ()), kwargs, **options)
            transaction.on_commit(call)
            return
        entry = outbox.add(self.name, list(args or ()), dict(kwargs or {}), options)
        transaction.on_commit(functools.partial(outbox.publish_after_commit, entry), robust=True)

    def __call__(self, *args: Any, **kwargs: Any) -> object:
        try:
            return super().__call__(*args, **kwargs)
        except (Retry, Ignore, Reject, *TRANSIENT):
            raise
        except Exception as error:
            fail = type(self).fail  # read on the class: a plain function, not a method
            if fail is None:
                raise
            logger.exception("task %s%r failed", self.name, args or kwargs)
            fail(args[0] if args else next(iter(kwargs.values())), error)
            return None


def enqueue_on_commit(name: str, *args: Any) -> None:
    """Queue the task registered as ``name`` once the transaction commits, as its
    ``delay_on_commit`` does; a name no task has raises KeyError."""
    task = current_app.tasks[name]
    assert isinstance(task, PlatformTask), f"{name} is not a PlatformTask"
    task.delay_on_commit(*args)
