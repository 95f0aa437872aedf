"""Confidence intervals and significance between systems (docs/measures/intervals.md, SIGHAN 2003
§4.3)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

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
    return [
        (first, second)
        for (first, a), (second, b) in combinations(scores.items(), 2)
        if not significantly_different(a, b)
    ]
