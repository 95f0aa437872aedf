from __future__ import annotations

from scoring import Dictionary, baseline_run, maxmatch, topline_run
from scoring.core.maxmatch import MaxMatcher


def test_it_takes_the_longest_word_at_each_position() -> None:
    assert maxmatch("和尚未结婚\n", ["和", "和尚", "尚未", "结婚"]) == "和尚 未 结婚\n"


def test_a_character_that_starts_no_word_is_a_word_of_its_own() -> None:
    assert maxmatch("ab１2\n", ["xy"]) == "a b １ 2\n"


def test_whitespace_in_the_input_is_removed_first() -> None:
    assert maxmatch("结 婚\u3000的\n", ["结婚"]) == "结婚 的\n"


def test_it_backs_off_when_a_prefix_leads_nowhere() -> None:
    # 中华人 is a prefix of 中华人民 only; at 中 the longest word is 中华.
    matcher = MaxMatcher(["中华", "中华人民", "人"])
    assert matcher.segment_line("中华人们") == ["中华", "人", "们"]


def test_empty_lines_stay_empty() -> None:
    assert maxmatch("结婚\n\n的\n", ["结婚"]) == "结婚\n\n的\n"


def test_baseline_uses_training_words_and_topline_gold_words() -> None:
    gold = "结婚 的 和 尚未 结婚 的\n"
    test = "结婚的和尚未结婚的\n"
    assert (
        baseline_run(test, Dictionary.from_words(["结婚", "和尚"])) == "结婚 的 和尚 未 结婚 的\n"
    )
    assert topline_run(test, gold) == "结婚 的 和 尚未 结婚 的\n"
