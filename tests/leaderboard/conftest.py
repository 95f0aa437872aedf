"""Here the corpus has its BASE and TOP scored, so every track's table has its reference rows."""

from __future__ import annotations

import pytest

from bakeoff.models import Bakeoff, Corpus
from tests.factories import make_corpus
from tests.hints import OnCommit


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff)
