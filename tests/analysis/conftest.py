"""The personas and fixtures of tests/bakeoff; the corpus has a training text, so that all seven
attributes are available, and its BASE and TOP are scored and analysed."""

from __future__ import annotations

from collections.abc import Iterator

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
from tests.hints import OnCommit

from .factories import make_corpus_with_training


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    prepared.clear()
    yield
    prepared.clear()


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:  # noqa: F811
    with on_commit():
        return make_corpus_with_training(bakeoff)
