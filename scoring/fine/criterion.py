"""Criterion discrepancy Ψ between training and test data (docs/measures/criterion.md, RethinkCWS
§4.2, Table 5).

Ψ(D_A^tr, D_B^te) = Σ over the word types w of B's test set of ψ(w, D_A^tr) · freq(w) / N, where
ψ is the label consistency of w in A's training text (attribute wCon) and N counts B's test words:
the mean, over B's test words, of how consistently A's training data segments them the same way.
It needs A's training corpus as running text; without it the entry is None (unavailable).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.text import all_words
from .attributes import TrainingText


def criterion_discrepancy(training: TrainingText, test_words: Sequence[str]) -> float:
    """Ψ of a training corpus against the words of a test set (0 for no words).

    >>> training = TrainingText.from_segmented("和尚 未 结婚\\n和 尚未\\n")
    >>> round(criterion_discrepancy(training, ["和尚", "未", "结婚"]), 4)  # (1/2 + 1/2 + 1) / 3
    0.6667

    >>> from scoring import TrainingText
    >>> training = TrainingText.from_segmented("结婚 的 和尚\\n和尚 未 结婚\\n")
    >>> round(criterion_discrepancy(training, ["结婚", "的", "和尚"]), 3)
    1.0
    >>> round(criterion_discrepancy(training, ["结", "婚", "的", "和尚"]), 3)
    0.5
    """
    if not test_words:
        return 0.0
    frequency = Counter(test_words)
    types = list(frequency)
    psi = training.word_values(types)["wCon"]
    weights = np.fromiter((frequency[w] for w in types), np.float64, len(types))
    return float(psi @ weights / len(test_words))


@dataclass(frozen=True)
class CriterionMatrix:
    """Ψ for every pair (training corpus A, test corpus B); None where A has no running text."""

    training: tuple[str, ...]
    test: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...]

    def get(self, training: str, test: str) -> float | None:
        return self.values[self.training.index(training)][self.test.index(test)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "training": list(self.training),
            "test": list(self.test),
            "values": [list(row) for row in self.values],
        }


def criterion_matrix(
    training: Mapping[str, TrainingText | None], test_gold: Mapping[str, str]
) -> CriterionMatrix:
    """Ψ across the corpora of a bakeoff: rows are training corpora, columns test gold texts."""
    words = {name: all_words(text) for name, text in test_gold.items()}
    rows = []
    for stats in training.values():
        rows.append(
            tuple(
                None if stats is None else criterion_discrepancy(stats, words[name])
                for name in test_gold
            )
        )
    return CriterionMatrix(tuple(training), tuple(test_gold), tuple(rows))
