from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import (
    Dictionary,
    LineCountError,
    RunValidationError,
    Score,
    build_gold_index,
    score_run,
    score_texts,
)
from scoring.core.dictionary import EMPTY_DICTIONARY

GOLD = "结婚 的 和 尚未 结婚 的\n"
RUN = "结婚 的 和尚 未结婚 的\n"


def test_the_spec_example() -> None:
    score = score_texts(GOLD, RUN, EMPTY_DICTIONARY)
    assert (score.true_words, score.test_words, score.correct) == (6, 5, 3)
    assert score.recall == 0.5
    assert score.precision == 0.6
    assert score.f == pytest.approx(6 / 11, abs=1e-15)


def test_changes_are_counted_as_diff_y_pairs_them() -> None:
    # 和 尚未 结婚 (3 gold words) against 和尚 未结婚 (2 run words): 2 substitutions, 1 deletion.
    score = score_texts(GOLD, RUN, EMPTY_DICTIONARY)
    assert (score.substitutions, score.deletions, score.insertions) == (2, 1, 0)
    assert score.changes == 3


def test_oov_and_iv_recall() -> None:
    dictionary = Dictionary.from_words(["结婚", "的", "和"])
    score = score_texts(GOLD, RUN, dictionary)
    assert (score.oov_words, score.correct_oov) == (1, 0)  # 尚未 is OOV and missed
    assert score.oov_rate == pytest.approx(1 / 6)
    assert score.oov_recall == 0.0
    assert score.iv_recall == pytest.approx(3 / 5)


def test_with_an_empty_dictionary_every_word_is_oov_and_iv_recall_is_undefined() -> None:
    score = score_texts(GOLD, RUN, EMPTY_DICTIONARY)
    assert score.oov_rate == 1.0
    assert score.oov_recall == 0.5
    assert score.iv_recall is None
    assert "=== IV Recall Rate:\t--" in score.summary_text()


def test_empty_gold_lines_are_skipped() -> None:
    gold = "结婚 的\n\n和尚\n\n"
    score = score_texts(gold, "结婚 的\n  \n和 尚\n\n", EMPTY_DICTIONARY)
    assert (score.true_words, score.test_words, score.correct) == (3, 4, 2)


def test_line_ends_are_word_boundaries() -> None:
    # The last word of one line and the first of the next never merge.
    score = score_texts("a b\nc d\n", "a b\nc d\n", EMPTY_DICTIONARY)
    assert score.correct == 4


def test_a_run_with_a_dropped_line_is_refused_at_that_line() -> None:
    gold = build_gold_index("结婚 的\n和尚\n尚未\n", EMPTY_DICTIONARY)
    with pytest.raises(LineCountError) as caught:
        score_run("结婚 的\n尚未\n", gold)
    error = caught.value
    assert (error.line, error.column, error.expected, error.found) == (2, 1, "和", "尚")
    assert "the run has 2 lines and the test text 3" in str(error)


def test_a_run_with_other_characters_is_refused_with_line_and_column() -> None:
    gold = build_gold_index("结婚 的\n和尚 未\n", EMPTY_DICTIONARY)
    with pytest.raises(RunValidationError) as caught:
        score_run("结婚 的\n和 尙 未\n", gold)
    assert caught.value.to_dict() == {
        "detail": str(caught.value),
        "line": 2,
        "column": 2,
        "expected": "尚",
        "found": "尙",
    }


def test_whitespace_variants_score_alike() -> None:
    plain = score_texts(GOLD, RUN, EMPTY_DICTIONARY)
    variant = score_texts(
        "\ufeff 结婚\u3000的\t和 尚未  结婚 的 \r\n",
        "结婚\t的\u3000和尚 未结婚 的\r\n",
        EMPTY_DICTIONARY,
    )
    assert variant == plain


def test_a_run_in_gbk_scored_as_utf8_is_refused() -> None:
    from scoring import EncodingError

    gold = build_gold_index(GOLD, EMPTY_DICTIONARY)
    with pytest.raises(EncodingError) as caught:
        score_run(RUN.encode("gbk"), gold)
    assert caught.value.line == 1


def test_the_result_is_json_with_every_raw_count_and_a_signature() -> None:
    score = score_texts(GOLD, RUN, Dictionary.from_words(["结婚"]))
    data = json.loads(json.dumps(score.to_dict()))
    for key in (
        "recall",
        "precision",
        "f",
        "oov_rate",
        "oov_recall",
        "iv_recall",
        "true_words",
        "test_words",
        "correct",
        "oov_words",
        "correct_oov",
    ):
        assert key in data
    assert data["signature"]["gold_checksum"].startswith("sha256:")
    assert data["signature"]["scorer_version"]
    assert Score.from_dict(data) == score


def test_the_signature_names_gold_and_dictionary() -> None:
    one = score_texts(GOLD, RUN, Dictionary.from_words(["结婚"]))
    other_dictionary = score_texts(GOLD, RUN, Dictionary.from_words(["的"]))
    other_gold = score_texts("结婚 的 和尚 未 结婚 的\n", RUN, Dictionary.from_words(["结婚"]))
    assert one.signature.gold_checksum == other_dictionary.signature.gold_checksum
    assert one.signature.dictionary_checksum != other_dictionary.signature.dictionary_checksum
    assert one.signature.gold_checksum != other_gold.signature.gold_checksum
    assert str(one.signature).startswith("scorer:")


def test_a_gold_index_survives_a_round_trip(tmp_path: Path) -> None:
    gold = build_gold_index(GOLD + "和尚\n", Dictionary.from_words(["和尚"]))
    gold.save(tmp_path / "gold.npz")
    again = type(gold).load(tmp_path / "gold.npz")
    run = RUN + "和尚\n"
    assert score_run(run, again) == score_run(run, gold)
    assert again.checksum == gold.checksum
