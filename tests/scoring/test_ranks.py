"""scoring.fine.ranks gives scipy.stats's figures to the last bit, ties and degenerate tables
included, and spares the analysis scipy.stats's import."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats  # type: ignore[import-untyped]

from scoring.fine.ranks import friedman, row_ranks, spearman

# Few distinct values, so that ties are everywhere; F-like values and small integers both.
VALUES = st.sampled_from([0.0, 0.25, 0.5, 0.5625, 0.8125, 1.0, 0.333, 2.0, 7.0])


def same(ours: float, theirs: float) -> bool:
    return (math.isnan(ours) and math.isnan(theirs)) or ours == theirs


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(VALUES, min_size=1, max_size=9), min_size=1, max_size=30))
def test_the_ranks_and_ties_are_scipys(rows: list[list[float]]) -> None:
    width = len(rows[0])
    table = np.array([(row * width)[:width] for row in rows])
    ranks, ties = row_ranks(table)
    assert np.array_equal(ranks, stats.rankdata(table, method="average", axis=-1))
    groups = [np.unique(row, return_counts=True)[1] for row in table]
    assert ties == sum(float(g**3 - g) for counts in groups for g in counts)


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(min_value=0, max_value=12))
def test_spearman_is_scipys(data: st.DataObject, n: int) -> None:
    y = data.draw(st.lists(VALUES, min_size=n, max_size=n))
    x = data.draw(st.one_of(st.just(list(range(n))), st.lists(VALUES, min_size=n, max_size=n)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns of a constant input
        theirs = stats.spearmanr(x, y).statistic
    assert same(spearman(x, y), theirs), (x, y)


@settings(max_examples=300, deadline=None)
@given(st.data(), st.integers(min_value=3, max_value=8), st.integers(min_value=1, max_value=40))
def test_friedman_is_scipys(data: st.DataObject, k: int, n: int) -> None:
    samples = [data.draw(st.lists(VALUES, min_size=n, max_size=n)) for _ in range(k)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # all ties: 0/0
        theirs = stats.friedmanchisquare(*samples)
    statistic, p = friedman(*samples)
    assert same(statistic, theirs.statistic), samples
    assert same(p, theirs.pvalue), samples


def test_friedman_needs_three_samples() -> None:
    with pytest.raises(ValueError, match="At least 3 samples"):
        friedman([1.0], [2.0])


def test_an_analysis_imports_no_scipy_stats() -> None:
    # A fresh interpreter: this one has imported scipy.stats for the comparisons above.
    code = (
        "import sys\n"
        "from scoring.fine.ranks import friedman, spearman\n"
        "spearman([0, 1, 2], [0.5, 0.25, 1.0]); friedman([1, 2], [2, 1], [3, 3])\n"
        "print('scipy.stats' in sys.modules)\n"
    )
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "False"
