"""Properties of word scoring (docs/measures/scoring.md), on small random corpora (hypothesis).

Corpora are drawn from a six-character alphabet, so that equal words at different places, OOV and
IV words, and words that span each other's boundaries are all common.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from tests.scoring.perl import summary_block

ALPHABET = "的一是在不了"
SEPARATORS = (" ", "  ", "\t", "\u3000", " \u3000\t")

PROPERTIES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Line = list[str]


@dataclass(frozen=True)
class Case:
    """A gold corpus, a run of the same characters, and a training word list."""

    gold: list[Line]
    run: list[Line]
    dictionary: frozenset[str]

    def gold_text(self) -> str:
        return render(self.gold)

    def run_text(self) -> str:
        return render(self.run)

    def score(self) -> scoring.Score:
        return score_lines(self.gold, self.run, self.dictionary)


def render(lines: list[Line], separator: str = " ", line_ending: str = "\n") -> str:
    return "".join(separator.join(words) + line_ending for words in lines)


def score_lines(gold: list[Line], run: list[Line], dictionary: frozenset[str]) -> scoring.Score:
    return scoring.score_texts(render(gold), render(run), scoring.Dictionary.from_words(dictionary))


def cut(text: str, boundaries: list[bool]) -> Line:
    """``text`` cut before every character i > 0 whose boundaries[i - 1] is True."""
    words, start = [], 0
    for i, is_boundary in enumerate(boundaries, start=1):
        if is_boundary:
            words.append(text[start:i])
            start = i
    if text:
        words.append(text[start:])
    return words


@st.composite
def segmented_pair(draw: st.DrawFn) -> tuple[Line, Line]:
    """One line of text segmented twice: as gold and as a run."""
    text = draw(st.text(alphabet=ALPHABET, min_size=0, max_size=14))
    interior = max(len(text) - 1, 0)
    gold_cuts = draw(st.lists(st.booleans(), min_size=interior, max_size=interior))
    # A run that mostly agrees with gold, as real runs do, or cuts anywhere.
    run_cuts = draw(
        st.one_of(
            st.lists(st.booleans(), min_size=interior, max_size=interior),
            st.lists(st.integers(0, 5), min_size=interior, max_size=interior).map(
                lambda flips: [
                    gold != (flip == 0) for gold, flip in zip(gold_cuts, flips, strict=True)
                ]
            ),
        )
    )
    return cut(text, gold_cuts), cut(text, run_cuts)


@st.composite
def cases(draw: st.DrawFn, min_lines: int = 1) -> Case:
    pairs = draw(st.lists(segmented_pair(), min_size=min_lines, max_size=8))
    # build_gold_index refuses a gold standard without words.
    if not any(gold for gold, _ in pairs):
        pairs.append((["的", "一是"], ["的一", "是"]))
    gold = [g for g, _ in pairs]
    run = [r for _, r in pairs]
    vocabulary = sorted({word for line in gold for word in line} | set(ALPHABET))
    dictionary = draw(st.sets(st.sampled_from(vocabulary)))
    return Case(gold=gold, run=run, dictionary=frozenset(dictionary))


def totals(score: scoring.Score) -> tuple[int, ...]:
    return (
        score.true_words,
        score.test_words,
        score.correct,
        score.oov_words,
        score.correct_oov,
        score.insertions,
        score.deletions,
        score.substitutions,
    )


def spans(words: Line) -> set[tuple[int, int]]:
    offsets = [0, *itertools.accumulate(len(word) for word in words)]
    return set(itertools.pairwise(offsets))


@PROPERTIES
@given(cases())
def test_a_run_identical_to_gold_scores_one_everywhere(case: Case) -> None:
    score = score_lines(case.gold, case.gold, case.dictionary)
    assert score.correct == score.true_words == score.test_words
    assert (score.recall, score.precision, score.f) == (1.0, 1.0, 1.0)
    assert score.oov_recall in (1.0, None)
    assert score.iv_recall in (1.0, None)
    assert (score.insertions, score.deletions, score.substitutions) == (0, 0, 0)
    summary = perl_block(score)
    for label in ("TOTAL TRUE WORDS RECALL", "TOTAL TEST WORDS PRECISION", "F MEASURE"):
        assert summary[label] == "1.000"


def perl_block(score: scoring.Score) -> dict[str, str]:
    return summary_block(score.summary_text())


@PROPERTIES
@given(cases())
def test_figures_stay_between_zero_and_one(case: Case) -> None:
    score = case.score()
    for value in (score.recall, score.precision, score.f, score.oov_rate):
        assert 0.0 <= value <= 1.0
    for maybe in (score.oov_recall, score.iv_recall):
        assert maybe is None or 0.0 <= maybe <= 1.0
    assert 0 <= score.correct <= min(score.true_words, score.test_words)
    assert 0 <= score.correct_oov <= score.oov_words <= score.true_words


@PROPERTIES
@given(cases())
def test_counts_are_those_of_span_comparison(case: Case) -> None:
    # docs/measures/scoring.md as written: a run word is correct when its [start, end) is a gold
    # span of its line.
    score = case.score()
    correct = correct_oov = 0
    for gold, run in zip(case.gold, case.run, strict=True):
        hits = spans(gold) & spans(run)
        correct += len(hits)
        offsets = [0, *itertools.accumulate(len(word) for word in gold)]
        correct_oov += sum(
            1
            for word, span in zip(gold, itertools.pairwise(offsets), strict=True)
            if span in hits and word not in case.dictionary
        )
    assert score.true_words == sum(map(len, case.gold))
    assert score.test_words == sum(map(len, case.run))
    assert (score.correct, score.correct_oov) == (correct, correct_oov)
    assert score.oov_words == sum(w not in case.dictionary for line in case.gold for w in line)
    # Every unmatched word is one change: diff -y pairs them as substitutions, the rest stay alone.
    assert score.deletions + score.substitutions == score.true_words - score.correct
    assert score.insertions + score.substitutions == score.test_words - score.correct


@PROPERTIES
@given(cases(), st.randoms(use_true_random=False))
def test_permuting_lines_does_not_change_totals(case: Case, rng: random.Random) -> None:
    order = list(range(len(case.gold)))
    rng.shuffle(order)
    shuffled = score_lines(
        [case.gold[i] for i in order], [case.run[i] for i in order], case.dictionary
    )
    assert totals(shuffled) == totals(case.score())


@PROPERTIES
@given(cases(min_lines=2), st.data())
def test_scoring_two_halves_sums_to_scoring_the_whole(case: Case, data: st.DataObject) -> None:
    at = data.draw(st.integers(1, len(case.gold) - 1))
    halves = [(case.gold[:at], case.run[:at]), (case.gold[at:], case.run[at:])]
    parts = [
        score_lines(gold, run, case.dictionary)
        for gold, run in halves
        if any(gold)  # a gold standard without words is refused, and counts nothing
    ]
    summed = tuple(sum(values) for values in zip(*map(totals, parts), strict=True))
    assert summed == totals(case.score())


@st.composite
def whitespace_variant(draw: st.DrawFn, lines: list[Line]) -> str:
    """The same segmentation written with other separators, line endings, padding and a BOM."""
    line_ending = draw(st.sampled_from(("\n", "\r\n")))
    rendered = []
    for words in lines:
        gaps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
        body = (
            words[0] + "".join(gap + word for gap, word in zip(gaps[1:], words[1:], strict=True))
            if words
            else ""
        )
        lead = draw(st.sampled_from(("", " ", "\t", "\u3000", "  ")))
        trail = draw(st.sampled_from(("", " ", "\t", "\u3000", "  ")))
        rendered.append(lead + body + trail + line_ending)
    last_ending = draw(st.booleans())
    text = "".join(rendered)
    if not last_ending and text.endswith(line_ending) and lines and lines[-1]:
        text = text[: -len(line_ending)]
    bom = draw(st.booleans())
    return ("\ufeff" if bom else "") + text


@PROPERTIES
@given(cases(), st.data())
def test_scoring_ignores_whitespace_variants(case: Case, data: st.DataObject) -> None:
    gold_text = data.draw(whitespace_variant(case.gold))
    run_text = data.draw(whitespace_variant(case.run))
    words = data.draw(st.sampled_from(("\n", "\r\n", " \n", "\t\r\n")))
    word_list = "".join(word + words for word in sorted(case.dictionary))
    dictionary = scoring.Dictionary.from_word_list(word_list)
    plain = case.score()
    varied = scoring.score_texts(gold_text, run_text, dictionary)
    assert totals(varied) == totals(plain)
    assert varied.summary_text() == plain.summary_text()
    # The gold checksum is that of the segmentation, whatever its whitespace.
    assert varied.signature.gold_checksum == plain.signature.gold_checksum
    # As bytes too, including a UTF-8 BOM on both.
    as_bytes = scoring.score_run(
        run_text.encode("utf-8"),
        scoring.build_gold_index(gold_text.encode("utf-8"), dictionary),
        aligned_lines="any",
    )
    assert totals(as_bytes) == totals(plain)


@st.composite
def edited(draw: st.DrawFn, case: Case) -> tuple[int, Line]:
    """A line of the run with one character inserted, deleted or replaced (a flawed gold line)."""
    index = draw(st.sampled_from([i for i, line in enumerate(case.gold) if line]))
    chars = "".join(case.run[index])
    at = draw(st.integers(0, len(chars)))
    new = draw(st.sampled_from("“”" + ALPHABET))
    edit = draw(st.sampled_from(("insert", "delete", "replace")))
    if edit == "insert" or not chars:
        chars = chars[:at] + new + chars[at:]
    elif edit == "delete":
        at = min(at, len(chars) - 1)
        chars = chars[:at] + chars[at + 1 :]
    else:
        at = min(at, len(chars) - 1)
        chars = chars[:at] + new + chars[at + 1 :]
    interior = max(len(chars) - 1, 0)
    cuts = draw(st.lists(st.booleans(), min_size=interior, max_size=interior))
    return index, cut(chars, cuts)


@PROPERTIES
@given(cases(), st.data())
def test_a_line_scored_by_alignment_counts_alone(case: Case, data: st.DataObject) -> None:
    index, line = data.draw(edited(case))
    run = [*case.run[:index], line, *case.run[index + 1 :]]
    whole = score_lines(case.gold, run, case.dictionary)
    alone = score_lines([case.gold[index]], [line], case.dictionary)
    rest_gold = case.gold[:index] + case.gold[index + 1 :]
    rest_run = run[:index] + run[index + 1 :]
    parts = [alone]
    if any(rest_gold):
        parts.append(score_lines(rest_gold, rest_run, case.dictionary))
    summed = tuple(sum(values) for values in zip(*map(totals, parts), strict=True))
    assert summed == totals(whole)
    assert 0 <= whole.correct <= min(whole.true_words, whole.test_words)
    assert whole.test_words == sum(map(len, run))
    if "".join(line) != "".join(case.gold[index]):
        assert whole.aligned_lines == (index + 1,)
