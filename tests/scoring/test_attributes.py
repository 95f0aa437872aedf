"""The seven word attributes (docs/measures/buckets.md), hand-computed on a small training text and
gold."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring import Dictionary, build_gold_index
from scoring.core.score import score_run_details
from scoring.core.segmentation import parse
from scoring.fine.attributes import (
    NEEDS_TRAINING_TEXT,
    TrackAttributes,
    TrainingText,
    WordValues,
    line_lengths,
    prepare_track,
    segmentation_words,
)
from scoring.fine.schemes import ATTRIBUTES

# 结婚 occurs as a word twice and once inside 结婚证; 他 is S in line 1 and B in 他们.
TRAINING = "他 结婚 了\n结婚证 在 这里\n他们 在 结婚\n"
WORDS = "他\n结婚\n了\n结婚证\n在\n这里\n他们\n"
# 新郎 is OOV and never occurs in the training text.
GOLD = "他 在 结婚\n新郎 结婚 了\n"
RUN = "他在 结婚\n新 郎 结婚 了\n"


@pytest.fixture(scope="module")
def track() -> TrackAttributes:
    gold = build_gold_index(GOLD, Dictionary.from_word_list(WORDS))
    return prepare_track(gold, TrainingText.from_segmented(TRAINING))


def values(word_values: WordValues, name: str) -> list[float]:
    listed: list[float] = word_values.values[name].tolist()
    return listed


def test_training_statistics_count_words_characters_and_tags() -> None:
    training = TrainingText.from_segmented(TRAINING)
    assert training.word_counts["结婚"] == 2
    assert training.char_tags["他"] == (1, 0, 0, 1)  # B in 他们, S alone
    assert training.char_tags["婚"] == (0, 1, 2, 0)  # M in 结婚证, E in 结婚
    assert training.text == "他结婚了\n结婚证在这里\n他们在结婚"
    assert training.words == 9


def test_string_counts_include_occurrences_inside_words_and_overlapping_ones() -> None:
    training = TrainingText.from_segmented("哈哈哈 结婚证\n结 婚\n")
    counts = training.string_counts(["哈哈", "结婚", "婚证", "哈", "证结", "无"])
    # 哈哈 twice in 哈哈哈; a string never crosses a line (结 婚 spans words, not lines).
    assert counts.tolist() == [2, 2, 1, 3, 0, 0]


def test_gold_values_by_hand(track: TrackAttributes) -> None:
    gold = track.gold_values
    # gold words: 他 在 结婚 | 新郎 结婚 了
    assert values(gold, "wLen") == [1, 1, 2, 2, 2, 1]
    assert values(gold, "sLen") == [4, 4, 4, 5, 5, 5]
    assert values(gold, "oDen") == [0, 0, 0, 1 / 3, 1 / 3, 1 / 3]
    assert values(gold, "wFre") == [1, 2, 2, 0, 2, 1]
    # characters: 他 2, 在 2, 结 3, 婚 3, 了 1, 新 郎 never
    assert values(gold, "cFre") == [2, 2, 3, 0, 3, 1]
    # 他: once a word of 2 occurrences; 结婚: 2 of 3 (once inside 结婚证); 新郎: never, so 0
    assert values(gold, "wCon") == pytest.approx([1 / 2, 1, 2 / 3, 0, 2 / 3, 1])
    # 他 is S once of twice; 结 is B 3 of 3, 婚 E 2 of 3
    assert values(gold, "cCon") == pytest.approx([1 / 2, 1, 5 / 6, 0, 5 / 6, 1])


def test_run_words_take_their_own_values_and_correct_ones_those_of_their_gold_word(
    track: TrackAttributes,
) -> None:
    run = score_run_details(RUN, track.gold)
    found = track.run_values(run)
    # run words: 他在 结婚 | 新 郎 结婚 了
    assert values(found, "wLen") == [2, 2, 1, 1, 2, 1]
    assert values(found, "wFre") == [0, 2, 0, 0, 2, 1]
    assert values(found, "wCon") == pytest.approx([0, 2 / 3, 0, 0, 2 / 3, 1])
    assert values(found, "cFre") == [2, 3, 0, 0, 3, 1]
    # 他 as B: 1 of 2; 在 as E: never
    assert values(found, "cCon") == pytest.approx([1 / 4, 5 / 6, 0, 0, 5 / 6, 1])
    assert values(found, "sLen") == [4, 4, 5, 5, 5, 5]
    gold_index = np.flatnonzero(run.gold_correct)
    run_index = np.flatnonzero(run.run_correct)
    for name in ATTRIBUTES:
        assert np.array_equal(
            found.values[name][run_index], track.gold_values.values[name][gold_index]
        )


def test_without_training_text_the_running_text_attributes_are_unavailable() -> None:
    gold = build_gold_index(GOLD, Dictionary.from_word_list(WORDS))
    track = prepare_track(gold, None)
    assert set(track.unavailable) == set(NEEDS_TRAINING_TEXT)
    assert set(track.gold_values.values) == {"wLen", "sLen", "oDen"}
    found = track.run_values(score_run_details(RUN, gold))
    assert set(found.values) == {"wLen", "sLen", "oDen"}


def test_words_and_line_lengths_of_a_segmentation() -> None:
    segmentation = parse("结婚 的\n\n和\u3000尚未 ｃ\r\n")
    assert segmentation_words(segmentation) == ["结婚", "的", "和", "尚未", "ｃ"]
    assert line_lengths(segmentation).tolist() == [3, 0, 4]


def test_a_run_of_another_gold_is_refused(track: TrackAttributes) -> None:
    other = build_gold_index("他 在\n", Dictionary.from_word_list(WORDS))
    with pytest.raises(ValueError, match="another gold"):
        track.run_values(score_run_details("他 在\n", other))


def test_cfre_and_ccon_are_means_over_characters() -> None:
    training = TrainingText.from_segmented("中国 人\n国人\n")
    found = training.word_values(["国人", "中"])
    assert found["cFre"].tolist() == [2.0, 1.0]  # 国 2, 人 2; 中 1
    # 国 as B: 1 of 2 (E in 中国); 人 as E: 1 of 2 (S alone); 中 as S: never
    assert found["cCon"].tolist() == [0.5, 0.0]
    assert math.isclose(found["wCon"][0], 1 / 2)  # 国人: a word once, two occurrences
