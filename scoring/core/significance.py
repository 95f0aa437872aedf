"""Confidence intervals and significance between systems (docs/measures/intervals.md, SIGHAN 2003
§4.3)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .result import Score


def confidence_interval(p: float, n: int) -> float:
    """Half-width of the 95% interval of a binomial proportion: 2·sqrt(p(1−p)/n).

    >>> round(confidence_interval(0.966, 11985), 4)
    0.0033
    """
    if n <= 0:
        raise ValueError("the number of trials must be positive")
    return 2 * math.sqrt(p * (1 - p) / n)


@dataclass(frozen=True)
class Interval:
    centre: float
    half_width: float

    @property
    def low(self) -> float:
        return self.centre - self.half_width

    @property
    def high(self) -> float:
        return self.centre + self.half_width

    def overlaps(self, other: Interval) -> bool:
        return abs(self.centre - other.centre) <= self.half_width + other.half_width


def recall_interval(score: Score) -> Interval:
    """R ± cr, with n = N.

    >>> from scoring import Score, Signature
    >>> interval = recall_interval(Score(1000, 1000, 950, 0, 0, 0, 0, 0, Signature("1", "g", "d")))
    >>> round(interval.low, 4), round(interval.high, 4)
    (0.9362, 0.9638)
    """
    return Interval(score.recall, confidence_interval(score.recall, score.true_words))


def precision_interval(score: Score) -> Interval:
    """P ± cp; SIGHAN took n = N (gold words) for precision too, and so do we."""
    return Interval(score.precision, confidence_interval(score.precision, score.true_words))


def significantly_different(a: Score, b: Score) -> bool:
    """True when the recall intervals or the precision intervals of two systems do not overlap.

    >>> from scoring import Score, Signature
    >>> def score(correct):
    ...     return Score(1000, 1000, correct, 0, 0, 0, 0, 0, Signature("1", "g", "d"))
    >>> significantly_different(score(950), score(945))
    False
    >>> significantly_different(score(950), score(900))
    True
    """
    return not (
        recall_interval(a).overlaps(recall_interval(b))
        and precision_interval(a).overlaps(precision_interval(b))
    )


def insignificant_pairs(scores: Mapping[str, Score]) -> list[tuple[str, str]]:
    """Every pair of systems that is not significantly different, in the order given.

    >>> from scoring import Score, Signature
    >>> def score(correct):
    ...     return Score(1000, 1000, correct, 0, 0, 0, 0, 0, Signature("1", "g", "d"))
    >>> insignificant_pairs({"a": score(950), "b": score(945), "c": score(900)})
    [('a', 'b')]
    """
    names = list(scores)
    if len(names) < 2:
        return []
    # Each system's two intervals once, then every pair at once: the same float operations as
    # ``Interval.overlaps`` (IEEE subtraction, abs and addition), so the same answers, without
    # the n(n-1)/2 Python calls that made a 300-run table take 0.3 s.
    recall = [recall_interval(score) for score in scores.values()]
    precision = [precision_interval(score) for score in scores.values()]
    first, second = np.triu_indices(len(names), 1)  # (0,1), (0,2)... as combinations() gives
    overlap = np.ones(first.size, dtype=bool)
    for intervals in (recall, precision):
        centre = np.array([i.centre for i in intervals])
        half = np.array([i.half_width for i in intervals])
        overlap &= np.abs(centre[first] - centre[second]) <= half[first] + half[second]
    return [(names[a], names[b]) for a, b in zip(first[overlap], second[overlap], strict=True)]
