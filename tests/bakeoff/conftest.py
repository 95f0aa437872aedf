from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Corpus, Site, Track

from .factories import NOW, make_bakeoff, make_corpus, make_site, make_user, track


@pytest.fixture(autouse=True)
def media_root(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return tmp_path / "media"


@pytest.fixture(autouse=True)
def synchronous_tasks() -> Iterator[None]:
    """These tests run tasks in-process even when a broker is configured (tests/production uses
    a real worker)."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[object]],
) -> Callable[[], AbstractContextManager[object]]:
    """``with on_commit(): ...`` runs what was enqueued after commit (tasks run synchronously)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def organiser(db: None) -> User:
    return make_user("olga", is_staff=True)


@pytest.fixture
def participant(db: None) -> User:
    return make_user("pat")


@pytest.fixture
def outsider(db: None) -> User:
    return make_user("otto")


@pytest.fixture
def bakeoff(organiser: User) -> Bakeoff:
    """A bakeoff around the real clock (for pages and the API)."""
    return make_bakeoff(organiser=organiser)


@pytest.fixture
def pinned_bakeoff(organiser: User) -> Bakeoff:
    """A bakeoff around the pinned time NOW (for services)."""
    return make_bakeoff(NOW, slug="pinned", organiser=organiser)


@pytest.fixture
def corpus(bakeoff: Bakeoff) -> Corpus:
    return make_corpus(bakeoff)


@pytest.fixture
def closed(corpus: Corpus) -> Track:
    return track(corpus, "closed")


@pytest.fixture
def site(bakeoff: Bakeoff, participant: User, closed: Track) -> Site:
    return make_site(bakeoff, participant, [closed])


@pytest.fixture
def client_for() -> Callable[[User | None], Client]:
    def login(user: User | None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return login


@pytest.fixture
def anonymous() -> Iterator[Client]:
    yield Client()
