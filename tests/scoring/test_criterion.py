"""Ψ, the criterion discrepancy between training and test data (docs/measures/criterion.md,
RethinkCWS Table 5)."""

from __future__ import annotations

import pytest

from scoring.fine.attributes import TrainingText
from scoring.fine.criterion import criterion_discrepancy, criterion_matrix

# 和尚 is a word once of its two occurrences (尚未 hides the second); 结婚 always a word.
TRAINING = TrainingText.from_segmented("和尚 未 结婚\n和 尚未\n")


def test_psi_is_the_frequency_weighted_consistency_of_the_test_words() -> None:
    # ψ: 和尚 1/2, 未 1/2, 结婚 1, 离婚 0 (never occurs)
    words = ["和尚", "未", "结婚", "结婚", "离婚"]
    expected = (1 / 2 + 1 / 2 + 1 + 1 + 0) / 5
    assert criterion_discrepancy(TRAINING, words) == pytest.approx(expected)


def test_a_test_set_segmented_like_the_training_data_scores_one() -> None:
    training = TrainingText.from_segmented("我们 喜欢 音乐\n音乐 很 好\n")
    assert criterion_discrepancy(training, ["我们", "喜欢", "音乐", "很", "好"]) == 1.0
    assert criterion_discrepancy(training, []) == 0.0


def test_the_matrix_marks_corpora_without_training_text_unavailable() -> None:
    matrix = criterion_matrix(
        {"a": TRAINING, "b": None},
        {"a": "和尚 未 结婚\n", "c": "和尚未 结婚\n"},
    )
    assert matrix.training == ("a", "b") and matrix.test == ("a", "c")
    assert matrix.get("a", "a") == pytest.approx((1 / 2 + 1 / 2 + 1) / 3)
    assert matrix.get("a", "c") == pytest.approx((0 + 1) / 2)
    assert matrix.get("b", "a") is None
    assert matrix.to_dict()["values"][1] == [None, None]
