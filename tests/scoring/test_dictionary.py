from __future__ import annotations

from scoring import Dictionary
from scoring.core.dictionary import EMPTY_DICTIONARY


def test_it_reads_one_word_a_line_ignoring_blank_lines_and_surrounding_space() -> None:
    words = Dictionary.from_word_list("结婚\r\n  的 \n\n和尚\u3000\n")
    assert words.words == {"结婚", "的", "和尚"}


def test_a_line_with_inner_whitespace_is_no_word() -> None:
    assert Dictionary.from_word_list("和 尚\n的\n").words == {"的"}


def test_the_checksum_ignores_line_endings_and_surrounding_space() -> None:
    assert (
        Dictionary.from_word_list("结婚\r\n的\r\n").checksum
        == Dictionary.from_word_list(" 结婚\n的\n\n").checksum
    )


def test_the_checksum_changes_with_the_words() -> None:
    assert Dictionary.from_words(["结婚"]).checksum != Dictionary.from_words(["结"]).checksum


def test_word_types_of_a_segmented_corpus() -> None:
    words = Dictionary.from_segmented("结婚 的 和 尚未 结婚 的\n和尚\n")
    assert words.words == {"结婚", "的", "和", "尚未", "和尚"}


def test_long_words_are_looked_up_exactly() -> None:
    long_word = "中华人民共和国全国人民代表大会常务委员会"  # over 32 bytes
    words = Dictionary.from_words([long_word, "中华人民共和国全国人民代表大会常务委员"])
    assert long_word in words
    assert len(EMPTY_DICTIONARY) == 0


def test_vectorised_look_ups_agree_with_a_python_set_word_for_word_on_icwb2() -> None:
    import pytest

    from scoring import build_gold_index, read_text
    from scoring.core.text import all_words, split_lines
    from tests.scoring import perl

    if not perl.ICWB2.is_dir():
        pytest.skip(f"the SIGHAN 2005 data is not at {perl.ICWB2}")
    for corpus, gold_name in (("as", "as_testing_gold.utf8"), ("msr", "msr_test_gold.utf8")):
        words_text = read_text(perl.ICWB2 / "gold" / f"{corpus}_training_words.utf8")
        known = {line.strip() for line in split_lines(words_text)} - {""}
        gold_text = read_text(perl.ICWB2 / "gold" / gold_name)
        gold = build_gold_index(gold_text, Dictionary.from_word_list(words_text))
        expected = [word not in known for word in all_words(gold_text)]
        assert gold.oov.tolist() == expected
        assert any(len(word.encode()) > 32 for word in known)  # the long-word path is used
