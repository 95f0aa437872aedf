"""Lines where gold and test text disagree (docs/validation.md): found by the corpus check, scored
aligned."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RunValidationError, build_gold_index, compare_gold_to_test, score_run
from scoring.core import align
from scoring.core.align import AlignedLine, AlignmentLimitError, align_chars, score_aligned_line
from scoring.core.dictionary import EMPTY_DICTIONARY

# As in the msr release: the gold lacks a closing quotation mark that the test text has.
GOLD = "他 说 ： “ 好 。\n我们 走 吧\n"
TEST = "他说：“好。”\n我们走吧\n"
RUN = "他 说 ： “ 好 。 ”\n我们 走 吧\n"


def test_the_corpus_check_lists_every_differing_line() -> None:
    [difference] = compare_gold_to_test(GOLD, TEST)
    assert (difference.line, difference.column, difference.gold, difference.test) == (1, 7, "", "”")


def test_the_corpus_check_shows_both_characters() -> None:
    [difference] = compare_gold_to_test("a b c\n", "abｃ\n")
    assert (difference.column, difference.gold, difference.test) == (3, "c", "ｃ")


def test_a_run_differing_from_gold_is_refused_unless_the_line_is_accepted() -> None:
    gold = build_gold_index(GOLD, EMPTY_DICTIONARY)
    with pytest.raises(RunValidationError):
        score_run(RUN, gold)
    score = score_run(RUN, gold, aligned_lines=[1])
    assert score.aligned_lines == (1,)
    # Every gold word is found; the extra quotation mark counts against precision only.
    assert (score.true_words, score.test_words, score.correct) == (9, 10, 9)
    assert (score.insertions, score.deletions, score.substitutions) == (1, 0, 0)


def test_an_accepted_line_need_not_differ() -> None:
    gold = build_gold_index(GOLD, EMPTY_DICTIONARY)
    score = score_run("他 说 ： “ 好 。\n我们 走 吧\n", gold, aligned_lines=[1, 2])
    assert score.aligned_lines == ()
    assert score.correct == 9


def test_a_replaced_character_makes_its_word_wrong() -> None:
    # The as release: ASCII c in gold where the test text has full-width ｃ.
    gold = build_gold_index("ab c d\n", EMPTY_DICTIONARY)
    score = score_run("ab ｃ d\n", gold, aligned_lines="any")
    assert (score.correct, score.test_words) == (2, 3)
    assert score.substitutions == 1


def test_a_gold_word_must_map_to_exactly_one_run_word() -> None:
    line = score_aligned_line(["他说", "好"], ["他", "说好"])
    assert line.gold_correct == (False, False)
    line = score_aligned_line(["他说", "“", "好"], ["他说", "好"])
    assert line.gold_correct == (True, False, True)
    assert (line.deletions, line.insertions) == (1, 0)


def test_a_run_character_inside_a_gold_word_breaks_it() -> None:
    line = score_aligned_line(["他说"], ["他“说"])
    assert line.gold_correct == (False,)


def test_alignment_pairs_a_longest_common_subsequence() -> None:
    mapping = align_chars("abcxdef", "abcdyef")
    assert mapping == [0, 1, 2, -1, 3, 5, 6]
    assert align_chars("", "abc") == []
    assert align_chars("abc", "") == [-1, -1, -1]


def test_the_aligned_and_the_vectorised_paths_agree_where_characters_are_equal() -> None:
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


def test_an_empty_gold_line_needs_an_empty_run_line_even_when_accepted() -> None:
    gold = build_gold_index("a b\n\n", EMPTY_DICTIONARY)
    with pytest.raises(RunValidationError, match="gold line is empty"):
        score_run("a b\nc\n", gold, aligned_lines="any")


def test_alignment_is_capped_with_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(align, "ALIGNMENT_LIMIT", 20)
    gold = build_gold_index("甲" * 30 + "\n", EMPTY_DICTIONARY)
    with pytest.raises(RunValidationError, match=r"line 1, column 1: .* differ in more than 20 "):
        score_run("乙" * 30 + "\n", gold, aligned_lines="any")
    with pytest.raises(AlignmentLimitError):
        align_chars("ab" * 10, "ba" * 10, limit=1)
    # One side empty in the middle: nothing to pair, whatever its length.
    assert align_chars("a" + "x" * 50 + "b", "ab") == [0, *[-1] * 50, 1]


def test_a_long_line_with_few_differences_aligns_in_time_that_grows_with_them() -> None:
    # 60,000 characters, 6 replaced: the old full table would need 3.6e9 cells.
    rng = random.Random(7)
    gold = "".join(rng.choice("的一是在不了有和人这") for _ in range(60_000))
    places = [5, 11_000, 23_456, 40_000, 59_000, 59_990]
    run = list(gold)
    for place in places:
        run[place] = "Ｘ"
    mapping = align_chars(gold, "".join(run))
    assert [i for i, j in enumerate(mapping) if j != i] == places
    assert all(mapping[i] == -1 for i in places)


def lcs_alignment(a: str, b: str) -> list[int]:
    """The alignment rule as the library computed it before Myers' algorithm: the common prefix
    and suffix paired, then a full table of LCS lengths over the middle, walked from the start,
    pairing equal characters at once and otherwise dropping a[i] when that keeps an LCS."""
    n, m = len(a), len(b)
    prefix = 0
    while prefix < n and prefix < m and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < n - prefix and suffix < m - prefix and a[n - 1 - suffix] == b[m - 1 - suffix]:
        suffix += 1
    mapping = list(range(prefix)) + [-1] * (n - prefix - suffix)
    mapping += [m - suffix + k for k in range(suffix)]
    a, b = a[prefix : n - suffix], b[prefix : m - suffix]
    n, m = len(a), len(b)
    longest = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            longest[i][j] = (
                longest[i + 1][j + 1] + 1
                if a[i] == b[j]
                else max(longest[i + 1][j], longest[i][j + 1])
            )
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            mapping[prefix + i] = prefix + j
            i += 1
            j += 1
        elif longest[i + 1][j] >= longest[i][j + 1]:
            i += 1
        else:
            j += 1
    return mapping


SHORT_LINES = st.text(alphabet="abc", max_size=12)


@settings(max_examples=1000, deadline=None)
@given(SHORT_LINES, SHORT_LINES)
def test_myers_pairs_exactly_as_the_full_lcs_table_did(a: str, b: str) -> None:
    assert align_chars(a, b) == lcs_alignment(a, b)


WORDS = st.lists(st.text(alphabet="ab“c", min_size=1, max_size=3), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_scored_lines_are_unchanged_by_the_new_alignment(
    gold_words: list[str], run_words: list[str]
) -> None:
    run_chars = "".join(run_words)
    line = score_aligned_line(gold_words, run_words)
    mapping = lcs_alignment("".join(gold_words), run_chars)
    assert line == reference_line(gold_words, run_words, mapping)


def reference_line(gold_words: list[str], run_words: list[str], mapping: list[int]) -> AlignedLine:
    """score_aligned_line as it was written before it was vectorised, on a given mapping."""
    run_word_at: dict[int, tuple[int, int]] = {}
    position = 0
    for index, word in enumerate(run_words):
        run_word_at[position] = (position + len(word), index)
        position += len(word)
    pairs: list[tuple[int, int]] = []
    correct: list[bool] = []
    start = 0
    for gold_index, word in enumerate(gold_words):
        targets = mapping[start : start + len(word)]
        start += len(word)
        first = targets[0]
        contiguous = first >= 0 and all(t == first + k for k, t in enumerate(targets))
        match = run_word_at.get(first) if contiguous else None
        is_correct = match is not None and match[0] == first + len(word)
        correct.append(is_correct)
        if match is not None and is_correct:
            pairs.append((gold_index, match[1]))
    insertions = deletions = substitutions = 0
    previous_gold = previous_run = -1
    for gold_index, run_index in [*pairs, (len(gold_words), len(run_words))]:
        a, b = gold_index - previous_gold - 1, run_index - previous_run - 1
        substitutions += min(a, b)
        deletions += a - min(a, b)
        insertions += b - min(a, b)
        previous_gold, previous_run = gold_index, run_index
    matched = {run_index for _, run_index in pairs}
    return AlignedLine(
        tuple(correct),
        tuple(index in matched for index in range(len(run_words))),
        len(run_words),
        insertions,
        deletions,
        substitutions,
    )
