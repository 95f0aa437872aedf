"""Spearman's ρ and Friedman's χ² test as scipy.stats computes them, without importing
scipy.stats.

scipy.stats takes 0.7 s to import, and every worker process paid it at its first analysis: the
two statistics the analysis needs are a few lines of numpy. Each follows scipy's own steps (the
same average ranks, the same numpy calls on arrays of the same shape, the same arithmetic), so
the figures are scipy's to the last bit: ``tests/scoring/test_ranks.py`` compares them with
scipy.stats on random tables full of ties. Friedman's p-value is scipy.special's χ² survival
function (``chdtrc``), the very function scipy.stats calls: 0.3 s to import, paid only where a
track has a profile to test.

    >>> float(spearman([0, 1, 2, 3], [0.5, 0.7, 0.7, 0.9]))
    0.9486832980505139
    >>> statistic, p = friedman([1, 2, 3], [2, 3, 4], [3, 4, 5])
    >>> float(statistic), round(float(p), 4)
    (6.0, 0.0498)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


def row_ranks(table: npt.ArrayLike) -> tuple[Floats, np.float64]:
    """The ranks of each row of a 2-D table from 1, ties sharing their mean rank (scipy's
    ``rankdata(method="average")``), and the ties' sum of g³ - g over every group of g equal
    values of a row (Friedman's correction). The values are numbers, never NaN (an F that is
    undefined is left out before): scipy would give NaN ranks where this puts a NaN last."""
    data = np.asarray(table, dtype=float)
    width = data.shape[-1]
    order = np.argsort(data, axis=-1, kind="mergesort")
    ordered = np.take_along_axis(data, order, axis=-1)
    starts = np.ones(ordered.shape, dtype=bool)  # the first of a group of equal values
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    ends = np.ones(ordered.shape, dtype=bool)  # the last of one
    ends[:, :-1] = starts[:, 1:]
    position = np.arange(width)
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=-1)
    after = np.minimum.accumulate(np.where(ends, position + 1, width)[:, ::-1], axis=-1)[:, ::-1]
    ranks = np.empty(ordered.shape)
    # The mean of the ranks first + 1 .. after: a multiple of 1/2, exact in a float.
    np.put_along_axis(ranks, order, 0.5 * (first + 1 + after), axis=-1)
    size = after - first
    ties = np.float64(np.sum(np.where(starts, size**3 - size, 0)))
    return ranks, ties


def _ranks(values: Floats) -> Floats:
    ranks, _ = row_ranks(values[np.newaxis, :])
    row: Floats = ranks[0]
    return row


def spearman(x: Sequence[float], y: Sequence[float]) -> np.float64:
    """``scipy.stats.spearmanr(x, y).statistic``: NaN where there are fewer than two pairs or
    either side is constant (scipy also warns there)."""
    a = np.column_stack((np.asarray(x), np.asarray(y)))
    if a.shape[0] <= 1 or (a[:, 0] == a[0, 0]).all() or (a[:, 1] == a[0, 1]).all():
        return np.float64(np.nan)
    ranked = np.apply_along_axis(_ranks, 0, a)
    correlations: Floats = np.asarray(np.corrcoef(ranked, rowvar=False))
    return np.float64(correlations[1, 0])


def friedman(*samples: Sequence[float]) -> tuple[np.float64, np.float64]:
    """``scipy.stats.friedmanchisquare(*samples)``: the statistic and its p-value, for k ≥ 3
    samples (the treatments) of n values each (the blocks); NaN where every block is all ties."""
    k = len(samples)
    if k < 3:
        raise ValueError(f"At least 3 samples must be given for Friedman test, got {k}.")
    blocks = np.swapaxes(np.stack([np.asarray(s, dtype=float) for s in samples]), 0, -1)
    n = blocks.shape[0]
    ranks, ties = row_ranks(blocks)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = 1 - ties / (k * (k * k - 1) * n)
        ssbn = np.sum(np.sum(ranks, axis=0) ** 2, axis=-1)
        statistic = (12.0 / (k * n * (k + 1)) * ssbn - 3 * n * (k + 1)) / c
    from scipy import special  # type: ignore[import-untyped]  # deferred: 0.3 s to import

    p: np.float64 = special.chdtrc(np.float64(k - 1), statistic)
    return np.float64(statistic), p
