"""The corpus has a training text, so that all seven attributes are available; its BASE and TOP
are scored and analysed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from analysis import prepared
from bakeoff.models import Bakeoff, Corpus
from tests.factories import make_corpus
from tests.hints import OnCommit

# 和尚 occurs as a word and inside 和 尚未 (ψ = 1/2); 工作 and 天气 never occur (OOV, ψ = 0).
TRAINING = "结婚 的 和尚 未 结婚\n和 尚未 结婚 的\n我们 在 北京\n今天 很 好\n"


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    prepared.clear()
    yield
    prepared.clear()


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff, training=TRAINING)
