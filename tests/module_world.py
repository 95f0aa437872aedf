"""A world of rows and files built once for a whole test module, and rolled back at its end.

Building a lived-in bakeoff takes seconds; a module whose tests only read it, or change it inside
their own transaction, builds it once. The module's rows are written in a transaction opened
before its first test and rolled back after its last (pytest-django runs each test in a savepoint
inside it, rolled back after the test), so every test starts from the same rows, and nothing is
left for the next module. Its files are written to a media root of the module's; each test gets a
copy of them in its own media root, so a test that deletes or adds files changes only its copy.
"""

from __future__ import annotations

import copy
import inspect
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.db import transaction
from django.test import TestCase, override_settings

from config.celery import app

T = TypeVar("T")


@contextmanager
def captured_on_commit() -> Iterator[object]:
    """What the ``on_commit`` fixture gives a test, for a module's world."""
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        yield callbacks


def built_once(
    blocker: Any, media: Path, build: Callable[[], T]
) -> Iterator[T]:  # a generator for a module-scoped fixture
    """``build()`` run in a transaction that stays open until the module ends (yield from it in
    a module-scoped fixture that requests ``django_db_setup`` and ``django_db_blocker``). It runs
    as a test of the platform would: files under ``media``, tasks in-process, cheap passwords."""
    with blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            eager = app.conf.task_always_eager
            app.conf.task_always_eager = True
            try:
                with override_settings(
                    MEDIA_ROOT=media,
                    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
                ):
                    world = build()
            finally:
                app.conf.task_always_eager = eager
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield world
    finally:
        with blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def own_copy(built: tuple[T, Path], media_root: Path) -> T:
    """A test's own copy of a module's world (``built``: the world and its media root, as the
    module fixture yields them): its files in the test's media root, its objects deep-copied, as
    setUpTestData's class attributes are for each test."""
    world, media = built
    copy_media(media, media_root)
    return copy.deepcopy(world)


def copy_media(media: Path, into: Path) -> None:
    """The module's files, copied into a test's own media root."""
    if media.exists():
        shutil.copytree(media, into, dirs_exist_ok=True)


def module_world(name: str, build: Callable[[], T]) -> tuple[Any, Any]:
    """The two fixtures of a module's world: ``built`` (module scope: ``build()`` run once, with
    its media root, named ``name`` among the session's temporary folders) and ``mine`` (a test's
    own copy of it, ``own_copy``). A module takes them as ``built, mine = module_world(...)``."""

    @pytest.fixture(scope="module")
    def built(
        django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
    ) -> Iterator[tuple[T, Path]]:
        media = tmp_path_factory.mktemp(name) / "media"
        for world in built_once(django_db_blocker, media, build):
            yield world, media

    @pytest.fixture
    def mine(built: tuple[T, Path], db: None, media_root: Path) -> T:
        return own_copy(built, media_root)

    return built, mine


def taken_from_world(attribute: str, world: str = "mine") -> Any:
    """A shared fixture (``bakeoff``, ``participant``...) given by the module's world (the test's
    copy, ``mine`` unless the module names it otherwise) instead: the shared one would make a
    second bakeoff b2026 or a second user of that name."""

    def taken(**fixtures: Any) -> Any:
        return getattr(fixtures[world], attribute)

    # The world named as a parameter, not looked up when called: pytest then builds the module's
    # world before the test's own fixtures (a package's settings for the test must not be the
    # world's).
    taken.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(world, inspect.Parameter.KEYWORD_ONLY)]
    )
    return pytest.fixture(name=attribute)(taken)
