"""A tiny corpus with a segmented training text, and helpers shared by the analysis tests."""

from __future__ import annotations

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus
from tests.bakeoff.factories import GOLD, TEST, WORDS
from tests.leaderboard.factories import (
    PERFECT_RUN,
    SPLIT_RUN,
    WORKED_RUN,
    make_scored_runs,
    publish,
    rival,
    upload,
)

# 和尚 occurs as a word and inside 和 尚未 (ψ = 1/2); 工作 and 天气 never occur (OOV, ψ = 0).
TRAINING = "结婚 的 和尚 未 结婚\n和 尚未 结婚 的\n我们 在 北京\n今天 很 好\n"

__all__ = [
    "PERFECT_RUN",
    "SPLIT_RUN",
    "TRAINING",
    "WORKED_RUN",
    "make_corpus_with_training",
    "make_scored_runs",
    "publish",
    "rival",
    "upload",
]


def make_corpus_with_training(
    bakeoff: Bakeoff,
    *,
    abbreviation: str = "PK",
    gold: str = GOLD,
    training: str | None = TRAINING,
    words: str | None = WORDS,
) -> Corpus:
    return services.do_create_corpus(
        bakeoff,
        services.CorpusFiles(
            gold=gold.encode(),
            test_text=TEST.encode() if gold == GOLD else None,
            training_words=None if words is None else words.encode(),
            training_text=None if training is None else training.encode(),
        ),
        name=f"{abbreviation} corpus",
        abbreviation=abbreviation,
        institution="Peking University",
        standard="PKU",
        conditions=("closed", "open"),
    )
