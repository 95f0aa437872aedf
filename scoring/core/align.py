"""Lines whose gold and run characters differ (docs/validation.md): the corpus check, and character
alignment.

Real corpora have flaws: 16 msr gold lines lack a quotation mark that the test text has, and an as
gold line has ``c`` where the test text has ``ｃ``. Such a line, once the organiser accepts it, is
scored by aligning the gold's and the run's characters along a longest common subsequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import CorpusFormatError
from .text import split_lines, strip_separators


@dataclass(frozen=True)
class LineDifference:
    """The first place where a gold line (whitespace removed) and its test line differ.

    ``line`` and ``column`` are 1-based, the column counting characters of the line without
    whitespace; ``gold`` and ``test`` are the characters found there (``""`` past a line's end).
    """

    line: int
    column: int
    gold: str
    test: str

    def __str__(self) -> str:
        return (
            f"line {self.line}, column {self.column}: gold has {_show(self.gold)}, "
            f"test text has {_show(self.test)}"
        )


def _show(char: str) -> str:
    return f"'{char}' (U+{ord(char):04X})" if char else "the end of the line"


def first_difference(a: str, b: str) -> tuple[int, str, str]:
    """The 1-based column of the first difference of two unequal strings, and the two characters
    there (``""`` where one string has ended)."""
    limit = min(len(a), len(b))
    column = next((i for i in range(limit) if a[i] != b[i]), limit)
    return column + 1, a[column : column + 1], b[column : column + 1]


def compare_gold_to_test(gold_text: str, test_text: str) -> list[LineDifference]:
    """Every line where the gold, its whitespace removed, differs from the test text."""
    gold_lines = split_lines(gold_text)
    test_lines = split_lines(test_text)
    if len(gold_lines) != len(test_lines):
        raise CorpusFormatError(
            f"the gold standard has {len(gold_lines)} lines and the test text "
            f"{len(test_lines)}: they must have one line per sentence each"
        )
    differences = []
    for number, (gold_line, test_line) in enumerate(zip(gold_lines, test_lines, strict=True), 1):
        gold_chars, test_chars = strip_separators(gold_line), strip_separators(test_line)
        if gold_chars != test_chars:
            column, gold_char, test_char = first_difference(gold_chars, test_chars)
            differences.append(LineDifference(number, column, gold_char, test_char))
    return differences


def align_chars(a: str, b: str) -> list[int]:
    """For each character of ``a``, the index of the character of ``b`` it is paired with along a
    longest common subsequence, or -1 where it is paired with none.

    The common prefix and suffix are paired directly (that keeps an LCS), so the quadratic table is
    built only over the differing middle, which on real flaws is a few characters.
    """
    n, m = len(a), len(b)
    prefix = 0
    while prefix < n and prefix < m and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < n - prefix and suffix < m - prefix and a[n - 1 - suffix] == b[m - 1 - suffix]:
        suffix += 1
    middle = _lcs_pairs(a[prefix : n - suffix], b[prefix : m - suffix])
    mapping = list(range(prefix)) + [-1] * (n - prefix - suffix)
    mapping += [m - suffix + k for k in range(suffix)]
    for i, j in middle:
        mapping[prefix + i] = prefix + j
    return mapping


def _lcs_pairs(a: str, b: str) -> list[tuple[int, int]]:
    n, m = len(a), len(b)
    if not n or not m:
        return []
    # longest[i][j]: length of an LCS of a[i:] and b[j:]
    longest = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = longest[i], longest[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    pairs = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i += 1
            j += 1
        elif longest[i + 1][j] >= longest[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


@dataclass(frozen=True)
class AlignedLine:
    """The counts of one line scored by character alignment."""

    gold_correct: tuple[bool, ...]
    run_correct: tuple[bool, ...]
    run_words: int
    insertions: int
    deletions: int
    substitutions: int

    @property
    def correct(self) -> int:
        return sum(self.gold_correct)


def score_aligned_line(gold_words: Sequence[str], run_words: Sequence[str]) -> AlignedLine:
    """Score one line whose gold and run characters differ (docs/validation.md): a gold word is
    correct when its characters align, in order and without a gap, to exactly one run word."""
    mapping = align_chars("".join(gold_words), "".join(run_words))
    run_word_at: dict[int, tuple[int, int]] = {}  # start -> (end, index)
    position = 0
    for index, word in enumerate(run_words):
        run_word_at[position] = (position + len(word), index)
        position += len(word)
    pairs: list[tuple[int, int]] = []
    correct = []
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
    insertions, deletions, substitutions = hunk_counts(pairs, len(gold_words), len(run_words))
    matched_run = {run_index for _, run_index in pairs}
    run_correct = tuple(index in matched_run for index in range(len(run_words)))
    return AlignedLine(
        tuple(correct), run_correct, len(run_words), insertions, deletions, substitutions
    )


def hunk_counts(
    pairs: Sequence[tuple[int, int]], gold_words: int, run_words: int
) -> tuple[int, int, int]:
    """Insertions, deletions and substitutions as ``diff -y`` shows them: between two matched
    words, ``a`` unmatched gold and ``b`` unmatched run words are min(a, b) substitutions and the
    rest deletions (gold) or insertions (run)."""
    insertions = deletions = substitutions = 0
    previous_gold = previous_run = -1
    for gold_index, run_index in [*pairs, (gold_words, run_words)]:
        a = gold_index - previous_gold - 1
        b = run_index - previous_run - 1
        paired = min(a, b)
        substitutions += paired
        deletions += a - paired
        insertions += b - paired
        previous_gold, previous_run = gold_index, run_index
    return insertions, deletions, substitutions
