"""A world built once for a whole test module, as Django's ``TestCase.setUpTestData`` builds one
for a class: in a transaction the module holds open and rolls back when its last test ends. Each
test's own transaction (pytest-django's ``db``) is then a savepoint inside it, rolled back after
the test, so no test sees what another wrote and the order of the tests does not matter.

A module fixture builds inside ``building``, which gives what a test's fixtures would have given
the building (tasks run in-process, a media root, quick password hashes, an empty cache, the
commit's callbacks run with ``on_commit``). Objects built once are shared: a test gets copies
(``copy.deepcopy``, as setUpTestData's class attributes are copied), and its media root gets a
copy of the module's files (``copy_media``).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from pytest_django import DjangoDbBlocker

from tests.hints import OnCommit

MD5 = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # as tests/conftest.py's media_root


def on_commit() -> AbstractContextManager[object]:
    """``with on_commit(): ...`` runs what the block enqueued after its commit (the shared fixture
    of that name is a test's, not a module's)."""
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(execute=True)


@contextmanager
def module_transaction(blocker: DjangoDbBlocker) -> Iterator[None]:
    """The module's transaction: whatever was built in it is rolled back at the end."""
    from django.db import transaction

    with blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
    try:
        yield
    finally:
        with blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@contextmanager
def building(blocker: DjangoDbBlocker, media: Path, **settings: object) -> Iterator[OnCommit]:
    """Inside the module's transaction: the database reachable and a test's surroundings."""
    from django.core.cache import cache
    from django.test import override_settings
    from django.utils import translation

    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    cache.clear()
    try:
        with (
            blocker.unblock(),
            override_settings(MEDIA_ROOT=media, PASSWORD_HASHERS=MD5, **settings),
        ):
            yield on_commit
    finally:
        app.conf.task_always_eager = eager
        cache.clear()
        translation.deactivate()


def copy_media(media: Path, test_media: Path) -> None:
    """The module's files into a test's media root (a test may write or remove files there)."""
    if media.exists():
        shutil.copytree(media, test_media, dirs_exist_ok=True)
