"""The Celery app: ``celery -A config worker`` (and ``celery -A config beat`` for the sweep)."""

import os
import threading

from celery import Celery
from celery.signals import worker_process_init, worker_ready, worker_shutdown

from scoring import keep_freed_memory

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bakeoff")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

_recovery_stop = threading.Event()


@worker_process_init.connect
def _reuse_freed_memory(**_: object) -> None:
    # A worker scores run after run: keeping freed memory spares a page fault per page per run.
    keep_freed_memory()


def recover() -> None:
    """One round of recovery: publish the tasks that wait in the outbox (the broker was away),
    then queue again the runs whose lease ran out (their worker died)."""
    from bakeoff import outbox, services

    outbox.publish_waiting()
    services.do_requeue_abandoned()


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
