"""Lines where gold and test text disagree (docs/validation.md): found by the corpus check, scored
aligned."""

import pytest

from scoring import RunValidationError, build_gold_index, compare_gold_to_test, score_run
from scoring.core.align import align_chars, score_aligned_line
from scoring.core.dictionary import EMPTY_DICTIONARY

# As in the msr release: the gold lacks a closing quotation mark that the test text has.
GOLD = "他 说 ： “ 好 。\n我们 走 吧\n"
TEST = "他说：“好。”\n我们走吧\n"
RUN = "他 说 ： “ 好 。 ”\n我们 走 吧\n"


def test_the_corpus_check_lists_every_differing_line():
    [difference] = compare_gold_to_test(GOLD, TEST)
    assert (difference.line, difference.column, difference.gold, difference.test) == (1, 7, "", "”")


def test_the_corpus_check_shows_both_characters():
    [difference] = compare_gold_to_test("a b c\n", "abｃ\n")
    assert (difference.column, difference.gold, difference.test) == (3, "c", "ｃ")


def test_a_run_differing_from_gold_is_refused_unless_the_line_is_accepted():
    gold = build_gold_index(GOLD, EMPTY_DICTIONARY)
    with pytest.raises(RunValidationError):
        score_run(RUN, gold)
    score = score_run(RUN, gold, aligned_lines=[1])
    assert score.aligned_lines == (1,)
    # Every gold word is found; the extra quotation mark counts against precision only.
    assert (score.true_words, score.test_words, score.correct) == (9, 10, 9)
    assert (score.insertions, score.deletions, score.substitutions) == (1, 0, 0)


def test_an_accepted_line_need_not_differ():
    gold = build_gold_index(GOLD, EMPTY_DICTIONARY)
    score = score_run("他 说 ： “ 好 。\n我们 走 吧\n", gold, aligned_lines=[1, 2])
    assert score.aligned_lines == ()
    assert score.correct == 9


def test_a_replaced_character_makes_its_word_wrong():
    # The as release: ASCII c in gold where the test text has full-width ｃ.
    gold = build_gold_index("ab c d\n", EMPTY_DICTIONARY)
    score = score_run("ab ｃ d\n", gold, aligned_lines="any")
    assert (score.correct, score.test_words) == (2, 3)
    assert score.substitutions == 1


def test_a_gold_word_must_map_to_exactly_one_run_word():
    line = score_aligned_line(["他说", "好"], ["他", "说好"])
    assert line.gold_correct == (False, False)
    line = score_aligned_line(["他说", "“", "好"], ["他说", "好"])
    assert line.gold_correct == (True, False, True)
    assert (line.deletions, line.insertions) == (1, 0)


def test_a_run_character_inside_a_gold_word_breaks_it():
    line = score_aligned_line(["他说"], ["他“说"])
    assert line.gold_correct == (False,)


def test_alignment_pairs_a_longest_common_subsequence():
    mapping = align_chars("abcxdef", "abcdyef")
    assert mapping == [0, 1, 2, -1, 3, 5, 6]
    assert align_chars("", "abc") == []
    assert align_chars("abc", "") == [-1, -1, -1]


def test_the_aligned_and_the_vectorised_paths_agree_where_characters_are_equal():
    gold = ["结婚", "的", "和", "尚未", "结婚", "的"]
    run = ["结婚", "的", "和尚", "未结婚", "的"]
    line = score_aligned_line(gold, run)
    vectorised = score_run(" ".join(run) + "\n", build_gold_index(" ".join(gold), EMPTY_DICTIONARY))
    assert line.correct == vectorised.correct
    assert (line.insertions, line.deletions, line.substitutions) == (
        vectorised.insertions,
        vectorised.deletions,
        vectorised.substitutions,
    )


def test_an_empty_gold_line_needs_an_empty_run_line_even_when_accepted():
    gold = build_gold_index("a b\n\n", EMPTY_DICTIONARY)
    with pytest.raises(RunValidationError, match="gold line is empty"):
        score_run("a b\nc\n", gold, aligned_lines="any")
