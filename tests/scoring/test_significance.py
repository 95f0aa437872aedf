from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    Score,
    Signature,
    confidence_interval,
    insignificant_pairs,
    rank_scores,
    significantly_different,
)
from scoring.core.table import format_table

SIGNATURE = Signature("test", "sha256:g", "sha256:d")


def make(correct: int, true_words: int = 10_000, test_words: int = 10_000) -> Score:
    return Score(true_words, test_words, correct, 0, 0, 0, 0, 0, SIGNATURE)


def test_the_sighan_2003_check() -> None:
    # docs/measures/intervals.md: R = 0.966 over 11,985 words gives cr = 0.0033; P = 0.956 gives cp
    # = 0.0037.
    assert round(confidence_interval(0.966, 11_985), 4) == 0.0033
    assert round(confidence_interval(0.956, 11_985), 4) == 0.0037


def test_precision_interval_uses_the_gold_word_count() -> None:
    score = make(9_000, true_words=10_000, test_words=9_500)
    [row] = rank_scores({"S01": score})
    assert row.cp == pytest.approx(2 * (score.precision * (1 - score.precision) / 10_000) ** 0.5)


def test_systems_far_apart_are_significantly_different() -> None:
    assert significantly_different(make(9_600), make(9_000))


def test_systems_close_together_are_not() -> None:
    assert not significantly_different(make(9_600), make(9_590))


def test_a_difference_in_precision_alone_is_enough() -> None:
    a = make(9_000, test_words=9_000)
    b = make(9_000, test_words=10_000)
    assert a.recall == b.recall
    assert significantly_different(a, b)


def test_it_lists_the_pairs_that_are_not_significantly_different() -> None:
    scores = {"S01": make(9_600), "S02": make(9_595), "S03": make(9_000)}
    assert insignificant_pairs(scores) == [("S01", "S02")]


def test_ties_share_a_rank() -> None:
    rows = rank_scores({"A": make(9_000), "B": make(9_500), "C": make(9_000), "D": make(8_000)})
    assert [(row.name, row.rank) for row in rows] == [("B", 1), ("A", 2), ("C", 2), ("D", 4)]


def test_the_table_marks_base_and_top_unranked_and_lists_the_pairs() -> None:
    text = format_table(
        {"S01": make(9_600), "S02": make(9_595)}, baseline=make(8_000), topline=make(9_900)
    )
    assert "BASE" in text and "TOP" in text
    assert "except: S01 and S02" in text
    assert "0.960" in text and "0.0039" in text


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 2_000), st.integers(1, 2_000), st.integers(0, 2_000)),
        max_size=25,
    )
)
def test_the_pairs_are_those_of_the_pairwise_rule(systems: list[tuple[int, int, int]]) -> None:
    """All pairs at once give exactly what ``significantly_different`` says pair by pair, in
    the order of ``combinations``; ties, equal systems and the bound itself included."""
    scores = {
        f"s{n}": make(min(correct, true, test), true_words=true, test_words=test)
        for n, (true, test, correct) in enumerate(systems)
    }
    expected = [
        (a, b)
        for (a, x), (b, y) in combinations(scores.items(), 2)
        if not significantly_different(x, y)
    ]
    assert insignificant_pairs(scores) == expected
