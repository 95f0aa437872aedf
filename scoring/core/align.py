"""Lines whose gold and run characters differ (docs/validation.md): the corpus check, and character
alignment.

Real corpora have flaws: 16 msr gold lines lack a quotation mark that the test text has, and an as
gold line has ``c`` where the test text has ``ｃ``. Such a line, once the organiser accepts it, is
scored by aligning the gold's and the run's characters along a longest common subsequence.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .errors import CorpusLineCountError, ScoringError, show_char
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
    return f"{show_char(char)} (U+{ord(char):04X})" if char else "the end of the line"


def first_difference(a: str, b: str) -> tuple[int, str, str]:
    """The 1-based column of the first difference of two unequal strings, and the two characters
    there (``""`` where one string has ended)."""
    limit = min(len(a), len(b))
    column = next((i for i in range(limit) if a[i] != b[i]), limit)
    return column + 1, a[column : column + 1], b[column : column + 1]


def compare_gold_to_test(gold_text: str, test_text: str) -> list[LineDifference]:
    """Every line where the gold, its whitespace removed, differs from the test text.

    >>> compare_gold_to_test("结婚 的 和尚\\n我 爱 北京\\n", "结婚的和尚\\n我爱上海\\n")
    [LineDifference(line=2, column=3, gold='北', test='上')]
    """
    gold_lines = split_lines(gold_text)
    test_lines = split_lines(test_text)
    if len(gold_lines) != len(test_lines):
        raise CorpusLineCountError(gold_lines=len(gold_lines), test_lines=len(test_lines))
    differences = []
    for number, (gold_line, test_line) in enumerate(zip(gold_lines, test_lines, strict=True), 1):
        gold_chars, test_chars = strip_separators(gold_line), strip_separators(test_line)
        if gold_chars != test_chars:
            column, gold_char, test_char = first_difference(gold_chars, test_chars)
            differences.append(LineDifference(number, column, gold_char, test_char))
    return differences


def align_chars(a: str, b: str, *, limit: int | None = None) -> list[int]:
    """For each character of ``a``, the index of the character of ``b`` it is paired with along a
    longest common subsequence, or -1 where it is paired with none (docs/validation.md).

    The common prefix and then the common suffix are paired directly (that keeps a longest common
    subsequence). Over the differing middle, walking from its start, equal characters are paired at
    once; where they differ, the character of ``a`` is left unpaired when a longest common
    subsequence is still possible without it, and otherwise the character of ``b``.

    The middle is aligned with Myers' O(ND) algorithm, so the cost grows with the number D of
    characters left unpaired (on either side), not with the product of the lengths. More than
    ``limit`` of them (default ALIGNMENT_LIMIT) raise AlignmentLimitError.

    >>> align_chars("abcxdef", "abcdyef")
    [0, 1, 2, -1, 3, 5, 6]
    """
    n, m = len(a), len(b)
    prefix = _common_forward(a, b, 0, 0)
    suffix = _common_backward(a, b, n, m, stop=prefix)
    mapping = list(range(prefix)) + [-1] * (n - prefix - suffix)
    mapping += range(m - suffix, m)
    middle = _middle_runs(
        a[prefix : n - suffix], b[prefix : m - suffix], ALIGNMENT_LIMIT if limit is None else limit
    )
    for i, j, length in middle:
        mapping[prefix + i : prefix + i + length] = range(prefix + j, prefix + j + length)
    return mapping


#: The most characters that character alignment leaves unpaired on one line (gold's and run's
#: together). Its work and memory grow with the square of that number.
ALIGNMENT_LIMIT = 2000


class AlignmentLimitError(ScoringError):
    """Two lines too different to align: more than ``limit`` characters would stay unpaired."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"the lines differ in more than {limit:,} characters, beyond what character alignment "
            "does per line"
        )


def _middle_runs(a: str, b: str, limit: int) -> list[tuple[int, int, int]]:
    """The pairs of the alignment rule, as runs ``(i, j, length)`` pairing ``a[i + t]`` with
    ``b[j + t]``.

    The rule needs, where two characters differ, whether dropping ``a[i]`` keeps a longest common
    subsequence, that is whether D(i + 1, j) = D(i, j) - 1, where D(i, j) is the number of
    unpaired characters of the best alignment of ``a[i:]`` with ``b[j:]``. Myers' algorithm run
    from the end gives, for each d, the points with D <= d (see _suffix_frontiers); the walk from
    the start then takes one step per unpaired character and a slice comparison per run of equal
    ones.
    """
    n, m = len(a), len(b)
    if not n or not m:
        return []
    frontiers = _suffix_frontiers(a, b, limit)
    delta = m - n
    d = len(frontiers) - 1
    runs = []
    i = j = 0
    while True:
        length = _common_forward(a, b, i, j)
        if length:
            runs.append((i, j, length))
            i += length
            j += length
        if not d:
            return runs
        # a[i] and b[j] differ (or one side has ended): one of the two steps keeps D - 1.
        if i < n and (j == m or _reaches(frontiers, d - 1, i + 1, j, delta)):
            i += 1
        else:
            j += 1
        d -= 1


def _reaches(frontiers: list[array[int]], d: int, i: int, j: int, delta: int) -> bool:
    """Whether D(i, j) <= d."""
    index = (j - i - delta + d) // 2
    return 0 <= index <= d and i >= frontiers[d][index]


def _suffix_frontiers(a: str, b: str, limit: int) -> list[array[int]]:
    """Myers' greedy algorithm from the end: ``frontiers[d][t]`` is the least i such that the
    point (i, i + k) on diagonal k = m - n - d + 2t has D <= d (len(a) + 1 where none has).

    On a diagonal, D only grows towards the start, so the points with D <= d are exactly those
    from that least i on. The list ends at the d where (0, 0) is reached: D(0, 0) = len - 1.
    """
    n, m = len(a), len(b)
    delta = m - n
    never = n + 1
    current = [n - _common_backward(a, b, n, m)]
    frontiers = [array("l", current)]
    d = 0
    while not (abs(delta) <= d and (d - delta) % 2 == 0 and current[(d - delta) // 2] == 0):
        d += 1
        if d > limit:
            raise AlignmentLimitError(limit)
        previous = current
        current = [never] * (d + 1)
        low = delta - d
        for t in range(d + 1):
            k = low + 2 * t
            best = never
            if t < d:  # from diagonal k + 1, one character of b fewer
                i = previous[t]
                if i < never and i + k >= 0:
                    best = i
            if t and previous[t - 1] < never:  # from diagonal k - 1, one character of a fewer
                i = previous[t - 1] - 1
                if 0 <= i < best:
                    best = i
            if best < never:
                best -= _common_backward(a, b, best, best + k)
                current[t] = best
        frontiers.append(array("l", current))
    return frontiers


def _common_forward(a: str, b: str, i: int, j: int) -> int:
    """The length of the common prefix of ``a[i:]`` and ``b[j:]``: slices of growing length are
    compared, then halved once one differs, so a long run costs a few comparisons in C."""
    most = min(len(a) - i, len(b) - j)
    length = 0
    step = 1
    growing = True
    while length < most:
        size = min(step, most - length)
        if a[i + length : i + length + size] == b[j + length : j + length + size]:
            length += size
            if growing:
                step *= 2
        elif size == 1:
            break
        else:
            growing = False
            step = size // 2
    return length


def _common_backward(a: str, b: str, i: int, j: int, stop: int = 0) -> int:
    """The length of the common suffix of ``a[:i]`` and ``b[:j]``, at most
    ``min(i, j) - stop``."""
    most = min(i, j) - stop
    length = 0
    step = 1
    growing = True
    while length < most:
        size = min(step, most - length)
        if a[i - length - size : i - length] == b[j - length - size : j - length]:
            length += size
            if growing:
                step *= 2
        elif size == 1:
            break
        else:
            growing = False
            step = size // 2
    return length


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
    mapping = np.array(align_chars("".join(gold_words), "".join(run_words)), np.int64)
    gold_lengths = np.fromiter(map(len, gold_words), np.int64, len(gold_words))
    gold_starts = np.cumsum(gold_lengths) - gold_lengths
    run_lengths = np.fromiter(map(len, run_words), np.int64, len(run_words))
    run_starts = np.cumsum(run_lengths) - run_lengths
    # A character breaks its gold word when it is unpaired, or paired elsewhere than right after
    # the character before it in the same word.
    broken = mapping < 0
    broken[1:] |= mapping[1:] != mapping[:-1] + 1
    broken[gold_starts] = mapping[gold_starts] < 0
    broken_before = np.concatenate(([0], np.cumsum(broken)))
    whole = broken_before[gold_starts + gold_lengths] == broken_before[gold_starts]
    # The run word, if any, that starts where each gold word's first character is paired.
    run_chars = int(run_lengths.sum())
    run_word_at = np.full(run_chars + 1, -1, np.int64)
    run_word_at[run_starts] = np.arange(len(run_words))
    first = np.where(whole, mapping[gold_starts], run_chars)
    match = run_word_at[first]
    correct = whole & (match >= 0)
    correct[correct] = run_lengths[match[correct]] == gold_lengths[correct]
    pairs_gold = np.flatnonzero(correct)
    pairs_run = match[pairs_gold]
    insertions, deletions, substitutions = hunk_counts(
        pairs_gold, pairs_run, len(gold_words), len(run_words)
    )
    run_correct = np.zeros(len(run_words), np.bool_)
    run_correct[pairs_run] = True
    return AlignedLine(
        tuple(correct.tolist()),
        tuple(run_correct.tolist()),
        len(run_words),
        insertions,
        deletions,
        substitutions,
    )


def hunk_counts(
    pairs_gold: npt.NDArray[np.int64],
    pairs_run: npt.NDArray[np.int64],
    gold_words: int,
    run_words: int,
) -> tuple[int, int, int]:
    """Insertions, deletions and substitutions as ``diff -y`` shows them: between two matched
    words (gold word ``pairs_gold[t]`` with run word ``pairs_run[t]``, both increasing), ``a``
    unmatched gold and ``b`` unmatched run words are min(a, b) substitutions and the rest
    deletions (gold) or insertions (run)."""
    gold_at = np.concatenate(([-1], pairs_gold, [gold_words]))
    run_at = np.concatenate(([-1], pairs_run, [run_words]))
    a = np.diff(gold_at) - 1
    b = np.diff(run_at) - 1
    substitutions = int(np.minimum(a, b).sum())
    return int(b.sum()) - substitutions, int(a.sum()) - substitutions, substitutions
