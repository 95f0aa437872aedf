"""The B/M/E/S CRF tagger (docs/measures/balanced-f.md): tags, feature templates, training and
tagging."""

from __future__ import annotations

import doctest

import pytest

import scoring.psychometric.crf
from scoring.core.errors import ScoringError
from scoring.psychometric.crf import (
    CrfSettings,
    char_features,
    tags_of,
    train_tagger,
    words_from_tags,
)

CORPUS = [
    "结婚  的  和尚  未  结婚  的",
    "我  爱  北京",
    "北京  是  首都",
    "和尚  爱  北京",
    "我  是  和尚",
]


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(scoring.psychometric.crf).failed == 0


def test_tags_of_words() -> None:
    assert tags_of(["中华人民", "的", "和尚"]) == ["B", "M", "M", "E", "S", "B", "E"]
    assert tags_of([]) == []


def test_words_from_tags_round_trip() -> None:
    words = ["中华人民", "的", "和尚", "好"]
    assert words_from_tags("".join(words), tags_of(words)) == words


def test_words_from_ill_formed_tags_still_cover_every_character() -> None:
    # M at the start, M after S: cut before B/S and after E/S only.
    assert words_from_tags("abcde", ["M", "S", "M", "E", "B"]) == ["a", "b", "cd", "e"]
    with pytest.raises(ValueError, match="2 characters but 1 tags"):
        words_from_tags("ab", ["S"])


def test_template_f1_features() -> None:
    assert char_features("我爱你", "F1")[1] == [
        "C-1=我",
        "C0=爱",
        "C1=你",
        "C-1,0=我爱",
        "C0,1=爱你",
    ]


def test_template_f2_reaches_two_characters_and_pads_the_ends() -> None:
    features = char_features("我爱你", "F2")
    assert features[0] == [
        "C-2=<s>", "C-1=<s>", "C0=我", "C1=爱", "C2=你",
        "C-2,-1=<s><s>", "C-1,0=<s>我", "C0,1=我爱", "C1,2=爱你",
    ]  # fmt: skip
    assert features[2][4] == "C2=</s>"


def test_template_f3_adds_trigrams() -> None:
    features = char_features("我爱北京", "F3")
    assert len(features) == 4
    assert all(len(row) == 12 for row in features)
    assert features[2][-3:] == ["C-2,-1,0=我爱北", "C-1,0,1=爱北京", "C0,1,2=北京</s>"]


def test_settings_refuse_an_unknown_template() -> None:
    with pytest.raises(ScoringError, match="F4"):
        CrfSettings(template="F4")  # type: ignore[arg-type]


def test_training_needs_a_sentence() -> None:
    with pytest.raises(ScoringError, match="no training sentences"):
        train_tagger(["", "  "], template="F1", max_iterations=5)


@pytest.mark.parametrize("template", ["F1", "F2", "F3"])
def test_a_tagger_learns_its_training_sentences(
    template: scoring.psychometric.crf.Template,
) -> None:
    tagger = train_tagger(CORPUS, template=template, max_iterations=50)
    assert tagger.training_sentences == len(CORPUS)
    assert tagger.settings.template == template
    unsegmented = [line.replace(" ", "") for line in CORPUS]
    assert tagger.segment(unsegmented) == [line.split() for line in CORPUS]


def test_tagging_takes_plain_sentences_and_keeps_empty_ones() -> None:
    tagger = train_tagger([line.split() for line in CORPUS], template="F1", max_iterations=50)
    assert tagger.segment(["", "我 爱北京"]) == [[], ["我", "爱", "北京"]]
    assert tagger.segment_text(["我爱北京", ""]) == "我  爱  北京\n\n"
    assert tagger.tag(["我爱北京"]) == [["S", "S", "B", "E"]]


def test_training_is_deterministic() -> None:
    first = train_tagger(CORPUS, template="F2", max_iterations=20)
    second = train_tagger(CORPUS, template="F2", max_iterations=20)
    assert first.model == second.model


def test_settings_are_recorded() -> None:
    settings = train_tagger(CORPUS, template="F1", max_iterations=7).settings.to_dict()
    assert settings["template"] == "F1"
    assert settings["max_iterations"] == 7
    assert settings["algorithm"] == "lbfgs"
