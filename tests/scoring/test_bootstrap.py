"""The paired bootstrap over sentences and the bucket F intervals (docs/measures/bootstrap.md)."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import build_gold_index
from scoring.core.dictionary import EMPTY_DICTIONARY
from scoring.core.gold import GoldIndex
from scoring.core.result import f_scores
from scoring.core.score import ScoredRun, score_run_details
from scoring.fine.bootstrap import (
    Resampling,
    adjacent_bootstrap,
    all_pairs_bootstrap,
    paired_bootstrap,
)

LINES = 300
GOLD_LINE = "今天 天气 很 好 我们 去 公园 散步"
WRONG_LINE = "今天天气 很 好 我 们 去 公园 散 步"  # 5 of 8 gold words right


def corpus(wrong: set[int]) -> str:
    return "".join((WRONG_LINE if i in wrong else GOLD_LINE) + "\n" for i in range(LINES))


@pytest.fixture(scope="module")
def gold() -> GoldIndex:
    return build_gold_index(corpus(set()), EMPTY_DICTIONARY)


def scored(gold: GoldIndex, wrong: set[int]) -> ScoredRun:
    return score_run_details(corpus(wrong), gold)


def test_identical_runs_give_one_half(gold: GoldIndex) -> None:
    run = scored(gold, set(range(0, LINES, 3)))
    assert paired_bootstrap(run, run).probability == 0.5


def test_equally_good_runs_give_one_half_give_or_take_noise(gold: GoldIndex) -> None:
    evens = scored(gold, set(range(0, LINES, 10)))
    odds = scored(gold, set(range(5, LINES, 10)))
    assert evens.score.f == odds.score.f
    result = paired_bootstrap(evens, odds, names=("evens", "odds"), samples=1000, seed=7)
    assert 0.4 < result.probability < 0.6


def test_a_clearly_worse_run_is_almost_never_ahead(gold: GoldIndex) -> None:
    good = scored(gold, set(range(0, LINES, 10)))
    bad = scored(gold, set(range(0, LINES, 2)))
    result = paired_bootstrap(bad, good, names=("bad", "good"))
    assert (result.upper, result.lower) == ("good", "bad")
    assert result.upper_f == good.score.f and result.lower_f == bad.score.f
    assert result.probability < 0.01


def test_the_same_seed_gives_the_same_result_and_another_seed_another(gold: GoldIndex) -> None:
    a = scored(gold, set(range(0, LINES, 7)))
    b = scored(gold, set(range(1, LINES, 6)))
    first = paired_bootstrap(a, b, seed=11)
    assert paired_bootstrap(a, b, seed=11) == first
    assert paired_bootstrap(a, b, seed=12).probability != first.probability
    weights = Resampling.draw(LINES, samples=50, seed=3).weights
    assert np.array_equal(weights, Resampling.draw(LINES, samples=50, seed=3).weights)


def test_resamples_draw_as_many_sentences_as_there_are() -> None:
    resampling = Resampling.draw(40, samples=25, seed=1)
    assert resampling.weights.shape == (25, 40)
    assert (resampling.weights.sum(axis=1) == 40).all()


def test_resampled_totals_equal_a_sum_over_the_drawn_sentences() -> None:
    counts = np.arange(30).reshape(10, 3)
    resampling = Resampling.draw(10, samples=5, seed=2)
    expected = [
        sum(int(w) * counts[line] for line, w in enumerate(weights))
        for weights in resampling.weights
    ]
    assert np.array_equal(resampling.totals(counts), np.array(expected, float))


def test_f_from_counts() -> None:
    f = f_scores([6, 0], [5, 0], [3, 0])
    assert f[0] == pytest.approx(6 / 11) and np.isnan(f[1])


def test_adjacent_ranks_share_the_resamples(gold: GoldIndex) -> None:
    runs = {
        "best": scored(gold, set(range(0, LINES, 20))),
        "middle": scored(gold, set(range(0, LINES, 5))),
        "worst": scored(gold, set(range(0, LINES, 2))),
    }
    pairs = adjacent_bootstrap({k: runs[k] for k in ("worst", "best", "middle")})
    assert [(p.upper, p.lower) for p in pairs] == [("best", "middle"), ("middle", "worst")]
    assert all(p.probability < 0.01 for p in pairs)


def test_every_pair_is_the_paired_bootstrap_of_the_two_on_the_same_resamples(
    gold: GoldIndex,
) -> None:
    runs = {
        "middle": scored(gold, set(range(0, LINES, 5))),
        "best": scored(gold, set(range(0, LINES, 20))),
        "same": scored(gold, set(range(0, LINES, 5))),
    }
    resampling = Resampling.draw(LINES, samples=200, seed=4)
    pairs = all_pairs_bootstrap(runs, resampling=resampling)
    assert [(p.upper, p.lower) for p in pairs] == [
        ("best", "middle"),
        ("middle", "same"),  # a tie: the one given first is the upper
        ("best", "same"),
    ]
    for pair in pairs:
        alone = paired_bootstrap(
            runs[pair.upper],
            runs[pair.lower],
            names=(pair.upper, pair.lower),
            resampling=resampling,
        )
        assert pair == alone
    assert pairs[1].probability == 0.5


def test_runs_of_different_gold_standards_are_refused(gold: GoldIndex) -> None:
    other = build_gold_index("今天 天气\n", EMPTY_DICTIONARY)
    with pytest.raises(ValueError, match="different gold"):
        paired_bootstrap(scored(gold, set()), score_run_details("今天 天气\n", other))


def test_a_domain_resamples_its_own_sentences_only(gold: GoldIndex) -> None:
    first_half = np.arange(LINES) < LINES // 2
    # The runs differ only in the second half: on the first half they are identical.
    a = scored(gold, set(range(0, LINES, 10)))
    b = scored(gold, set(range(0, LINES // 2, 10)) | set(range(LINES // 2, LINES, 2)))
    assert paired_bootstrap(a, b, lines=first_half).probability == 0.5
    assert paired_bootstrap(a, b, lines=~first_half).probability < 0.01
