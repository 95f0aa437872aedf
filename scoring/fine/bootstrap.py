"""Bootstrap over sentences (docs/measures/bootstrap.md), vectorised: counts are never recomputed
from text.

A resample draws as many sentences as the corpus has, with replacement. It is kept as a weight per
sentence (how often it was drawn), so the counts of a resample are one matrix product of the
weights with per-sentence count vectors, and a thousand resamples of any number of count vectors
cost a few matrix products. Weights are drawn from numpy's seeded Generator: the same seed, sample
count and number of sentences give the same resamples, on every machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.result import harmonic_mean
from ..core.score import ScoredRun
from ..core.segmentation import Mask

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 0
CONFIDENCE = 0.95
# float32 products are exact while every total stays below 2**24.
_FLOAT32_EXACT = 1 << 24


@dataclass(frozen=True, eq=False)
class Resampling:
    """``weights[s, l]``: how often sentence ``l`` was drawn in resample ``s``."""

    weights: npt.NDArray[np.float32]
    samples: int
    seed: int

    @classmethod
    def draw(
        cls, sentences: int, *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
    ) -> Resampling:
        if samples < 1:
            raise ValueError("the number of resamples must be positive")
        if sentences < 1:
            raise ValueError("there are no sentences to resample")
        rng = np.random.default_rng(seed)
        drawn = rng.integers(0, sentences, size=(samples, sentences), dtype=np.int32)
        weights = np.empty((samples, sentences), np.float32)
        # Row by row: each row's counters stay in cache, several times faster than one bincount.
        for sample in range(samples):
            weights[sample] = np.bincount(drawn[sample], minlength=sentences)
        return cls(weights, samples=samples, seed=seed)

    @property
    def sentences(self) -> int:
        return int(self.weights.shape[1])

    def totals(self, per_sentence: npt.ArrayLike) -> FloatArray:
        """Resampled sums of per-sentence counts: shape (samples,) or (samples, columns)."""
        counts = np.asarray(per_sentence)
        if counts.shape[0] != self.sentences:
            raise ValueError(
                f"{counts.shape[0]} sentences of counts for resamples of {self.sentences}"
            )
        if counts.size and int(np.abs(counts).sum()) * self.sentences >= _FLOAT32_EXACT:
            sums: FloatArray = self.weights.astype(np.float64) @ counts.astype(np.float64)
            return sums
        exact = self.weights @ counts.astype(np.float32)
        return exact.astype(np.float64)


def f_scores(gold: npt.ArrayLike, run: npt.ArrayLike, correct: npt.ArrayLike) -> FloatArray:
    """F = 2c / (N + N') elementwise (the harmonic mean of P and R); NaN where N + N' = 0."""
    g, r, c = (np.asarray(x, np.float64) for x in (gold, run, correct))
    total = g + r
    f: FloatArray = np.divide(2 * c, total, out=np.full(total.shape, np.nan), where=total > 0)
    return f


def percentile_intervals(values: FloatArray) -> list[tuple[float, float] | None]:
    """Per column, the central 95% of the defined values (NaN ignored), or None when a column
    has none (a bucket empty in every resample)."""
    tail = (1 - CONFIDENCE) / 2 * 100
    defined = ~np.isnan(values).all(axis=0)
    found: list[tuple[float, float] | None] = [None] * values.shape[1]
    if defined.any():
        low, high = np.nanpercentile(values[:, defined], [tail, 100 - tail], axis=0)
        for column, a, b in zip(np.flatnonzero(defined).tolist(), low, high, strict=True):
            found[column] = (float(a), float(b))
    return found


@dataclass(frozen=True)
class PairedBootstrap:
    """The paired bootstrap of two runs over sentences
    (docs/measures/bootstrap.md#paired-bootstrap).

    ``upper`` is the run with the higher F on the whole test set (the first given on a tie);
    ``probability`` is the share of resamples in which the lower run's F is not below the
    upper's, a tie counting one half (so two identical runs give exactly 0.5).
    """

    upper: str
    lower: str
    upper_f: float
    lower_f: float
    probability: float
    samples: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "upper": self.upper,
            "lower": self.lower,
            "upper_f": self.upper_f,
            "lower_f": self.lower_f,
            "probability": self.probability,
            "samples": self.samples,
            "seed": self.seed,
        }


def paired_bootstrap(
    first: ScoredRun,
    second: ScoredRun,
    *,
    names: tuple[str, str] = ("first", "second"),
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    lines: Mask | None = None,
    resampling: Resampling | None = None,
) -> PairedBootstrap:
    """How likely the lower-ranked of two runs is not worse, over resampled sentences.

    ``lines`` restricts the test set to some sentences (a domain); ``resampling`` reuses drawn
    weights (it must be over those sentences).
    """
    return adjacent_bootstrap(
        dict(zip(names, (first, second), strict=True)),
        samples=samples,
        seed=seed,
        lines=lines,
        resampling=resampling,
    )[0]


def adjacent_bootstrap(
    runs: Mapping[str, ScoredRun],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    lines: Mask | None = None,
    resampling: Resampling | None = None,
) -> list[PairedBootstrap]:
    """The paired bootstrap of each pair of adjacent ranks (best first), on shared resamples."""
    if len(runs) < 2:
        raise ValueError("the bootstrap compares at least two runs")
    scored = list(runs.values())
    checksum = scored[0].gold.checksum
    if any(run.gold.checksum != checksum for run in scored):
        raise ValueError("the runs were scored against different gold standards")
    counts = [_line_counts(run, lines) for run in scored]
    gold = counts[0][0]
    if resampling is None:
        resampling = Resampling.draw(gold.size, samples=samples, seed=seed)
    # One product for all runs: the gold column, then each run's run and correct columns.
    columns = np.column_stack([gold, *(c for _, r, k in counts for c in (r, k))])
    totals = resampling.totals(columns)
    f = f_scores(totals[:, :1], totals[:, 1::2], totals[:, 2::2])
    f = np.nan_to_num(f, nan=0.0)
    order = sorted(
        range(len(scored)), key=lambda i: -_exact_f(counts[i][0], counts[i][1], counts[i][2])
    )
    names = list(runs)
    pairs = []
    for upper, lower in pairwise(order):
        wins = np.count_nonzero(f[:, lower] > f[:, upper])
        ties = np.count_nonzero(f[:, lower] == f[:, upper])
        pairs.append(
            PairedBootstrap(
                upper=names[upper],
                lower=names[lower],
                upper_f=_f(counts[upper]),
                lower_f=_f(counts[lower]),
                probability=float(wins + ties / 2) / resampling.samples,
                samples=resampling.samples,
                seed=resampling.seed,
            )
        )
    return pairs


def _line_counts(run: ScoredRun, lines: Mask | None) -> tuple[IntArray, IntArray, IntArray]:
    gold, words, correct = run.line_counts()
    if lines is None:
        return gold, words, correct
    return gold[lines], words[lines], correct[lines]


def _exact_f(gold: IntArray, run: IntArray, correct: IntArray) -> Fraction:
    """F = 2c / (N + N') exactly, so that equal F is a tie and nothing else is."""
    total = int(gold.sum()) + int(run.sum())
    return Fraction(2 * int(correct.sum()), total) if total else Fraction(0)


def _f(counts: tuple[IntArray, IntArray, IntArray]) -> float:
    gold, run, correct = (int(x.sum()) for x in counts)
    precision = correct / run if run else 0.0
    recall = correct / gold if gold else 0.0
    return harmonic_mean(precision, recall)
