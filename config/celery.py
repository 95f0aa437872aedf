"""The Celery app: ``celery -A config worker`` (and ``celery -A config beat`` for the sweep)."""

import os

from celery import Celery
from celery.signals import worker_process_init

from scoring import keep_freed_memory

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bakeoff")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _reuse_freed_memory(**_: object) -> None:
    # A worker scores run after run: keeping freed memory spares a page fault per page per run.
    keep_freed_memory()
