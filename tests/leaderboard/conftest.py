"""The personas and fixtures of tests/bakeoff, shared here; the corpus has its BASE and TOP
scored, so every track's table has its reference rows."""

from __future__ import annotations

import pytest

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
from tests.bakeoff.factories import make_corpus
from tests.hints import OnCommit


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:  # noqa: F811
    with on_commit():
        return make_corpus(bakeoff)
