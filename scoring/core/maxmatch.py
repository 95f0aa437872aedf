"""Forward maximum matching (docs/measures/maxmatch.md), for the BASE and TOP rows of every
track."""

from __future__ import annotations

from collections.abc import Iterable

from .dictionary import Dictionary
from .text import all_words, split_lines, strip_separators


class MaxMatcher:
    """Segments text by taking, at each position, the longest dictionary word that starts there,
    or the single character where none does."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(w for w in words if w)
        # Every prefix of a word: the scan stops as soon as the text leaves all of them.
        self.prefixes = frozenset(w[:k] for w in self.words for k in range(1, len(w) + 1))

    def segment_line(self, line: str) -> list[str]:
        text = strip_separators(line)
        words, prefixes = self.words, self.prefixes
        out = []
        position, length = 0, len(text)
        while position < length:
            best = 1
            stop = position + 1
            while stop <= length:
                piece = text[position:stop]
                if piece not in prefixes:
                    break
                if piece in words:
                    best = stop - position
                stop += 1
            out.append(text[position : position + best])
            position += best
        return out

    def segment(self, text: str) -> str:
        return "".join(" ".join(self.segment_line(line)) + "\n" for line in split_lines(text))


def maxmatch(text: str, words: Iterable[str]) -> str:
    """Segment every line of ``text`` with ``words``; words are joined by one space.

    >>> maxmatch("和尚未结婚", ["和尚", "尚未", "结婚"])
    '和尚 未 结婚\\n'
    """
    return MaxMatcher(words).segment(text)


def baseline_run(test_text: str, dictionary: Dictionary) -> str:
    """The BASE run: maximum matching with the training word list.

    >>> print(baseline_run("结婚的和尚\\n", Dictionary.from_words(["结婚", "和尚"])), end="")
    结婚 的 和尚
    """
    return maxmatch(test_text, dictionary.words)


def topline_run(test_text: str, gold_text: str) -> str:
    """The TOP run: maximum matching with the word types of the gold standard ("cheating").

    >>> print(topline_run("结婚的和尚\\n", "结婚 的 和尚\\n"), end="")
    结婚 的 和尚
    """
    return maxmatch(test_text, all_words(gold_text))
