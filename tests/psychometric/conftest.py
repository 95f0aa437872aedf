"""The personas and fixtures of tests/bakeoff; the corpus has a small segmented training text,
so that a CRF committee can be trained on it, and its BASE and TOP are scored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_django import Settings

from bakeoff.models import Bakeoff, Corpus
from psychometric import services
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
def fresh_caches(settings: Settings) -> Iterator[None]:
    settings.ANALYSIS_BOOTSTRAP_SAMPLES = 20  # the analysis runs after every score; keep it quick
    services.clear()
    yield
    services.clear()


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:  # noqa: F811
    with on_commit():
        return make_corpus_with_training(bakeoff)
