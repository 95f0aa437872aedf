"""The personas and fixtures of tests/bakeoff; the corpus has a training text, so that all seven
attributes are available, and its BASE and TOP are scored and analysed."""

from __future__ import annotations

import pytest

from analysis import prepared
from bakeoff.models import Bakeoff, Corpus
from tests.bakeoff.conftest import (  # noqa: F401
    anonymous,
    bakeoff,
    client_for,
    closed,
    media_root,
    on_commit,
    organiser,
    outsider,
    participant,
    site,
    synchronous_tasks,
)

from .factories import make_corpus_with_training


@pytest.fixture(autouse=True)
def fresh_caches():  # type: ignore[no-untyped-def]
    prepared.clear()
    yield
    prepared.clear()


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit) -> Corpus:  # type: ignore[no-untyped-def]  # noqa: F811
    with on_commit():
        return make_corpus_with_training(bakeoff)
