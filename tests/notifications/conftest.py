"""The personas and fixtures of tests/bakeoff, shared here; and a fresh cache (allauth keeps its
rate limits there) for every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from tests.bakeoff.conftest import (  # noqa: F401
    anonymous,
    bakeoff,
    client_for,
    closed,
    corpus,
    media_root,
    on_commit,
    organiser,
    outsider,
    participant,
    site,
    synchronous_tasks,
)


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()
