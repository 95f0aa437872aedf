"""The per-word facts behind a score, which resampling and buckets build on."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import build_gold_index, read_dictionary, read_text
from scoring.core.dictionary import EMPTY_DICTIONARY
from scoring.core.score import score_run_details
from tests.scoring import perl


def test_correct_run_words_are_those_matching_a_gold_span() -> None:
    gold = build_gold_index("结婚 的 和 尚未 结婚 的\n", EMPTY_DICTIONARY)
    details = score_run_details("结婚 的 和尚 未结婚 的\n", gold)
    assert details.gold_correct.tolist() == [True, True, False, False, False, True]
    assert details.run_correct.tolist() == [True, True, False, False, True]


def test_run_flags_follow_the_run_on_aligned_lines() -> None:
    gold = build_gold_index("a b\n他 说 ： “ 好 。\nc d\n", EMPTY_DICTIONARY)
    details = score_run_details("a b\n他 说 ： “ 好 。 ”\nc d\n", gold, aligned_lines="any")
    assert details.run_correct.tolist() == [True] * 2 + [True] * 6 + [False] + [True] * 2
    assert details.gold_correct.all()


def test_line_counts_add_up_to_the_totals() -> None:
    gold = build_gold_index("结婚 的\n\n和 尚未\n", EMPTY_DICTIONARY)
    details = score_run_details("结婚 的\n\n和尚 未\n", gold)
    gold_words, run_words, correct = details.line_counts()
    assert gold_words.tolist() == [2, 0, 2]
    assert run_words.tolist() == [2, 0, 2]
    assert correct.tolist() == [2, 0, 0]


@pytest.mark.skipif(not perl.ICWB2.is_dir(), reason=f"no SIGHAN 2005 data at {perl.ICWB2}")
def test_flags_agree_with_the_counts_on_msr() -> None:
    from scoring import baseline_run

    dictionary = read_dictionary(perl.ICWB2 / "gold" / "msr_training_words.utf8")
    gold = build_gold_index(read_text(perl.ICWB2 / "gold" / "msr_test_gold.utf8"), dictionary)
    run = baseline_run(read_text(perl.ICWB2 / "testing" / "msr_test.utf8"), dictionary)
    details = score_run_details(run, gold, aligned_lines="any")
    score = details.score
    assert len(score.aligned_lines) == 16
    assert details.run_correct.size == score.test_words
    # Each correct gold word is one correct run word, also on the aligned lines.
    assert int(details.run_correct.sum()) == score.correct
    gold_words, run_words, correct = details.line_counts()
    assert (gold_words.sum(), run_words.sum(), correct.sum()) == (
        score.true_words,
        score.test_words,
        score.correct,
    )
    assert np.all(correct <= gold_words)
