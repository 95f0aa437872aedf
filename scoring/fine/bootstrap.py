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
from itertools import combinations, pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.result import exact_f, f_scores, precision_recall_f
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
    """``weights[s, l]``: how often sentence ``l`` was drawn in resample ``s``.

    >>> resampling = Resampling.draw(3, samples=2, seed=0)
    >>> resampling.weights.tolist()
    [[0.0, 2.0, 1.0], [3.0, 0.0, 0.0]]
    >>> resampling.totals([10, 20, 30]).tolist()
    [70.0, 30.0]
    """

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

    >>> from scoring import Dictionary, build_gold_index, score_run_details
    >>> gold = build_gold_index("我 爱 北京\\n北京 是 首都\\n" * 20, Dictionary.from_words([]))
    >>> good = score_run_details("我 爱 北京\\n北京 是 首都\\n" * 20, gold)
    >>> worse = score_run_details("我爱 北京\\n北京 是 首都\\n" * 20, gold)
    >>> result = paired_bootstrap(good, worse, names=("good", "worse"), samples=200)
    >>> result.upper, result.lower, result.probability
    ('good', 'worse', 0.0)
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
    bootstrap = _Bootstrap(runs, samples=samples, seed=seed, lines=lines, resampling=resampling)
    order = sorted(range(len(bootstrap.names)), key=lambda i: -bootstrap.exact[i])
    return [bootstrap.pair(upper, lower) for upper, lower in pairwise(order)]


def all_pairs_bootstrap(
    runs: Mapping[str, ScoredRun],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    lines: Mask | None = None,
    resampling: Resampling | None = None,
) -> list[PairedBootstrap]:
    """The paired bootstrap of every pair of runs, on shared resamples, in the order of
    ``itertools.combinations`` of the runs as given; in each pair the upper run has the higher F
    (the one given first on a tie).

    >>> from scoring import Dictionary, build_gold_index, score_run_details
    >>> gold = build_gold_index("我 爱 北京\\n北京 是 首都\\n", Dictionary.from_words([]))
    >>> runs = {
    ...     "a": score_run_details("我 爱 北京\\n北京 是 首都\\n", gold),
    ...     "b": score_run_details("我爱 北京\\n北京 是 首都\\n", gold),
    ...     "c": score_run_details("我爱 北京\\n北京 是首都\\n", gold),
    ... }
    >>> [(p.upper, p.lower) for p in all_pairs_bootstrap(runs, samples=100)]
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    bootstrap = _Bootstrap(runs, samples=samples, seed=seed, lines=lines, resampling=resampling)
    exact = bootstrap.exact
    return [
        bootstrap.pair(i, j) if exact[i] >= exact[j] else bootstrap.pair(j, i)
        for i, j in combinations(range(len(bootstrap.names)), 2)
    ]


class _Bootstrap:
    """The resampled F of several runs of one gold, from one product of the resampling weights
    with their per-sentence counts; ``pair`` compares two of them."""

    def __init__(
        self,
        runs: Mapping[str, ScoredRun],
        *,
        samples: int,
        seed: int,
        lines: Mask | None,
        resampling: Resampling | None,
    ) -> None:
        if len(runs) < 2:
            raise ValueError("the bootstrap compares at least two runs")
        scored = list(runs.values())
        checksum = scored[0].gold.checksum
        if any(run.gold.checksum != checksum for run in scored):
            raise ValueError("the runs were scored against different gold standards")
        self.names = list(runs)
        self.counts = [_line_counts(run, lines) for run in scored]
        gold = self.counts[0][0]
        if resampling is None:
            resampling = Resampling.draw(gold.size, samples=samples, seed=seed)
        self.resampling = resampling
        # One product for all runs: the gold column, then each run's run and correct columns.
        columns = np.column_stack([gold, *(c for _, r, k in self.counts for c in (r, k))])
        totals = resampling.totals(columns)
        f = f_scores(totals[:, :1], totals[:, 1::2], totals[:, 2::2])
        self.f = np.nan_to_num(f, nan=0.0)
        self.exact = [_exact_f(*c) for c in self.counts]

    def pair(self, upper: int, lower: int) -> PairedBootstrap:
        wins = np.count_nonzero(self.f[:, lower] > self.f[:, upper])
        ties = np.count_nonzero(self.f[:, lower] == self.f[:, upper])
        return PairedBootstrap(
            upper=self.names[upper],
            lower=self.names[lower],
            upper_f=_f(self.counts[upper]),
            lower_f=_f(self.counts[lower]),
            probability=float(wins + ties / 2) / self.resampling.samples,
            samples=self.resampling.samples,
            seed=self.resampling.seed,
        )


def _line_counts(run: ScoredRun, lines: Mask | None) -> tuple[IntArray, IntArray, IntArray]:
    gold, words, correct = run.line_counts()
    if lines is None:
        return gold, words, correct
    return gold[lines], words[lines], correct[lines]


def _exact_f(gold: IntArray, run: IntArray, correct: IntArray) -> Fraction:
    return exact_f(int(correct.sum()), int(gold.sum()), int(run.sum()))


def _f(counts: tuple[IntArray, IntArray, IntArray]) -> float:
    gold, run, correct = (int(x.sum()) for x in counts)
    return precision_recall_f(correct, gold, run)[2]
