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
    """R ± cr, with n = N."""
    return Interval(score.recall, confidence_interval(score.recall, score.true_words))


def precision_interval(score: Score) -> Interval:
    """P ± cp; SIGHAN took n = N (gold words) for precision too, and so do we."""
    return Interval(score.precision, confidence_interval(score.precision, score.true_words))


def significantly_different(a: Score, b: Score) -> bool:
    """True when the recall intervals or the precision intervals of two systems do not overlap."""
    return not (
        recall_interval(a).overlaps(recall_interval(b))
        and precision_interval(a).overlaps(precision_interval(b))
    )


def insignificant_pairs(scores: Mapping[str, Score]) -> list[tuple[str, str]]:
    """Every pair of systems that is not significantly different, in the order given."""
    return [
        (first, second)
        for (first, a), (second, b) in combinations(scores.items(), 2)
        if not significantly_different(a, b)
    ]
