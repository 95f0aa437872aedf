"""The Celery app: ``celery -A config worker`` (and ``celery -A config beat`` for the sweep)."""

import logging
import os
import threading
from typing import Any

from celery import Celery
from celery.signals import worker_process_init, worker_ready, worker_shutdown
from kombu.exceptions import OperationalError as BrokerError

from scoring import keep_freed_memory

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bakeoff")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

_recovery_stop = threading.Event()
logger = logging.getLogger(__name__)


@worker_process_init.connect
def _reuse_freed_memory(**_: object) -> None:
    # A worker scores run after run: keeping freed memory spares a page fault per page per run.
    keep_freed_memory()


def scoring_queue_length() -> int | None:
    """Messages waiting in the scoring queue, or None when the broker cannot be reached (the
    recovery loop then publishes nothing again: it cannot tell that the queue is empty)."""
    from django.conf import settings

    queue = settings.QUEUES["scoring"]
    with app.connection_for_read() as connection:
        # The transport's own errors (redis-py's for Redis) as well as kombu's and the socket's.
        away: tuple[type[BaseException], ...] = (
            BrokerError,
            OSError,
            *connection.connection_errors,
            *connection.channel_errors,
        )
        try:
            # One attempt, no retry: the loop asks again at its next round, and a broker that is
            # away must not hold it for kombu's retries (some 6 s).
            connection.ensure_connection(max_retries=0)
            channel: Any = connection.default_channel
            if hasattr(channel, "_size"):  # Redis (and kombu's other virtual transports)
                return int(channel._size(queue))
            return int(channel.queue_declare(queue=queue, passive=True).message_count)
        except away as error:
            logger.warning("the length of the scoring queue is unknown: %s", error)
            return None


def recover() -> None:
    """One round of recovery: publish the tasks that wait in the outbox (the broker was away),
    queue again the runs, committee builds and members whose lease ran out (their worker died),
    and publish again the task of a run left queued while nothing waits in the scoring queue (its
    message died with a worker)."""
    from bakeoff import outbox, services
    from psychometric import services as psychometric_services

    outbox.publish_waiting()
    services.do_requeue_abandoned()
    psychometric_services.do_requeue_abandoned()
    services.do_republish_lost(queue_empty=scoring_queue_length() == 0)


@worker_ready.connect
def _start_recovery(**_: object) -> None:
    # In the worker's main process (its pool's children run the tasks): a daemon thread.
    from django.conf import settings

    from bakeoff.outbox import run_recovery_loop

    if settings.BAKEOFF_RECOVERY_INTERVAL <= 0:
        return
    _recovery_stop.clear()
    recover_now = threading.Thread(
        target=run_recovery_loop,
        args=(recover, _recovery_stop, settings.BAKEOFF_RECOVERY_INTERVAL),
        name="bakeoff-recovery",
        daemon=True,
    )
    recover_now.start()


@worker_shutdown.connect
def _stop_recovery(**_: object) -> None:
    _recovery_stop.set()
