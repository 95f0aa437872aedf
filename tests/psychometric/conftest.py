"""The corpus has a small segmented training text, so that a CRF committee can be trained on it;
its BASE and TOP are scored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_django import Settings

from bakeoff.models import Bakeoff, Corpus
from psychometric import services
from tests.factories import make_corpus
from tests.hints import OnCommit

from .factories import TRAINING


@pytest.fixture(autouse=True)
def fresh_caches(settings: Settings) -> Iterator[None]:
    settings.ANALYSIS_BOOTSTRAP_SAMPLES = 20  # the analysis runs after every score; keep it quick
    services.clear()
    yield
    services.clear()


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff, training=TRAINING)
