"""What a committee reads and what it says of words: the runs' word scores (its members, for a
committee of runs), the training sentences (a CRF committee's), the gold words in corpus order,
and the hardest of them by the difficulty the committee rates them with.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

import scoring
from bakeoff.models import Corpus, GoldVersion, Score, SubmissionKind
from bakeoff.phase_table import official_phases
from bakeoff.services import uploads
from scoring import split_lines, words_of
from scoring.psychometric import committee as library

HARDEST = 50  # gold word types listed as the hardest (the paper's Figure 7)


def word_scores(gold: GoldVersion) -> Any:
    return Score.objects.filter(
        submission__track__corpus_id=gold.corpus_id,
        gold_version=gold,
        metric="word",
        superseded_at__isnull=True,
    ).select_related("submission__site", "submission__track", "gold_version")


def member_scores(gold: GoldVersion) -> Any:
    """The word scores of a committee of runs' members: the official runs, TOP left out."""
    # TOP segments with the gold's own words: a member that never misses says nothing.
    # Only official runs vote: post-bakeoff runs are rated, never raters (docs/phases.md).
    return (
        word_scores(gold)
        .filter(submission__phase__in=official_phases())
        .exclude(submission__kind=SubmissionKind.TOPLINE)
        .order_by("pk")
    )


def corpus_training_sentences(corpus: Corpus) -> list[str]:
    """The corpus's training sentences, as a CRF committee learns from them (read once per
    training text)."""
    return _read_training_sentences(corpus.pk, corpus.training_text_checksum)


def forget_training_sentences() -> None:
    """Forget the training sentences read so far (tests)."""
    _read_training_sentences.cache_clear()


@lru_cache(maxsize=2)
def _read_training_sentences(corpus_pk: int, checksum: str) -> list[str]:
    corpus = Corpus.objects.get(pk=corpus_pk)
    return library.training_sentences(uploads.read_stored_text(corpus.training_text))


def gold_words(gold: GoldVersion) -> list[str]:
    """The gold words in corpus order (line by line, empty lines skipped), as the library's."""
    text = uploads.read_stored_text(gold.file)
    return [word for line in split_lines(text) for word in words_of(line)]


def hardest_words(
    words: list[str], difficulty: npt.NDArray[np.float64], limit: int = HARDEST
) -> list[dict[str, Any]]:
    """The hardest gold word types: mean difficulty of their occurrences, then frequency."""
    if len(words) != difficulty.size:
        raise scoring.ScoringError(f"{difficulty.size} difficulties for {len(words)} gold words")
    positions = word_positions(words)
    rated = sorted(
        ((float(difficulty[p].mean()), len(p), word) for word, p in positions.items()),
        key=lambda r: (-r[0], -r[1], r[2]),
    )
    return [
        {"word": word, "count": count, "difficulty": round(d, 4)}
        for d, count, word in rated[:limit]
        if d > 0
    ]


def word_positions(words: list[str]) -> dict[str, npt.NDArray[np.int64]]:
    found: dict[str, list[int]] = defaultdict(list)
    for i, word in enumerate(words):
        found[word].append(i)
    return {word: np.array(p, np.int64) for word, p in found.items()}
