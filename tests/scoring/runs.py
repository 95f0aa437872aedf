"""Deterministic runs made from a corpus, as a participant would submit them.

A run must hold exactly the characters of the corpus's *test text*, line for line
(docs/validation.md). The icwb2 gold and test text disagree on a few lines (16 of msr, 1 of as;
docs/validation.md), so every run here is built on the test text: the perturbed run carries gold's
segmentation over to the test line through a character alignment, and the maximum matching run
segments the test line itself.

Nothing here imports the library under test.
"""

from __future__ import annotations

import difflib
import itertools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

BOM = "\ufeff"
_WHITESPACE = re.compile(r"[ \t\r\u3000\ufeff]+")  # a BOM can only sit at the start of line 1


def text_lines(text: str) -> list[str]:
    """Lines as the Perl scorer reads them: split at LF, CR dropped, none after a final LF."""
    if text.startswith(BOM):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def line_words(line: str) -> list[str]:
    return [word for word in _WHITESPACE.split(line) if word]


def line_characters(line: str) -> str:
    return _WHITESPACE.sub("", line)


@dataclass(frozen=True)
class RunFormat:
    """How a run file is written: word separator, line ending, byte order mark."""

    separator: str = " "
    line_ending: str = "\n"
    bom: bool = False

    def render(self, lines: Iterable[Sequence[str]]) -> str:
        body = "".join(self.separator.join(words) + self.line_ending for words in lines)
        return (BOM + body) if self.bom else body


def format_of(gold_text: str) -> RunFormat:
    """The conventions of a gold file (U+3000 or spaces, CRLF or LF, BOM), for a run like it."""
    first = gold_text.split("\n", 1)[0]
    if "\u3000" in first:
        separator = "\u3000"
    elif "  " in first:
        separator = "  "
    else:
        separator = " "
    line_ending = "\r\n" if "\r\n" in gold_text[:100_000] else "\n"
    return RunFormat(separator=separator, line_ending=line_ending, bom=gold_text.startswith(BOM))


# -- perturbed gold --------------------------------------------------------------------------------


def carry_segmentation(gold_words: Sequence[str], test_line: str) -> list[str]:
    """The test line cut wherever gold cuts, through a character alignment of gold and test line.

    Where gold and test line have the same characters (nearly every line) this is gold's words. On a
    line where they differ, a gold boundary is kept where it falls between two aligned characters,
    and a test character with no gold counterpart joins the word before it.
    """
    chars = line_characters(test_line)
    gold_chars = "".join(gold_words)
    if gold_chars == chars:
        return list(gold_words)
    boundaries: set[int] = set()
    offset = 0
    for word in gold_words[:-1]:
        offset += len(word)
        boundaries.add(offset)
    # Map gold offsets to test offsets through the matching blocks of the alignment.
    cuts: set[int] = set()
    matcher = difflib.SequenceMatcher(None, gold_chars, chars, autojunk=False)
    for gold_start, test_start, size in matcher.get_matching_blocks():
        for k in range(size + 1):
            if gold_start + k in boundaries and 0 < test_start + k < len(chars):
                cuts.add(test_start + k)
    edges = [0, *sorted(cuts), len(chars)]
    return [chars[a:b] for a, b in itertools.pairwise(edges) if b > a]


def perturb_words(words: Sequence[str], rng: random.Random, rate: float) -> list[str]:
    """Split multi-character words and merge adjacent words, each at about ``rate / 2`` of places.

    Characters are never changed, so the result segments the same text."""
    pieces: list[str] = []
    for word in words:
        if len(word) > 1 and rng.random() < rate / 2:
            cut = rng.randrange(1, len(word))
            pieces.extend((word[:cut], word[cut:]))
        else:
            pieces.append(word)
    merged: list[str] = []
    for piece in pieces:
        if merged and rng.random() < rate / 2:
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged


def perturbed_lines(
    gold_text: str, test_text: str, *, seed: int, rate: float = 0.1
) -> list[list[str]]:
    """Gold's segmentation of the test text, perturbed at about ``rate`` of places (seeded)."""
    gold_lines = text_lines(gold_text)
    test_lines = text_lines(test_text)
    if len(gold_lines) != len(test_lines):
        raise ValueError(f"gold has {len(gold_lines)} lines, test text {len(test_lines)}")
    rng = random.Random(seed)
    return [
        perturb_words(carry_segmentation(line_words(gold), test), rng, rate)
        for gold, test in zip(gold_lines, test_lines, strict=True)
    ]


def perturbed_run(
    gold_text: str,
    test_text: str,
    *,
    seed: int,
    rate: float = 0.1,
    run_format: RunFormat | None = None,
) -> str:
    """A run: gold perturbed on the test text, written like the gold file unless told otherwise."""
    lines = perturbed_lines(gold_text, test_text, seed=seed, rate=rate)
    return (run_format or format_of(gold_text)).render(lines)


# -- backward maximum matching ---------------------------------------------------------------------


class BackwardMaxMatcher:
    """Backward maximum matching: from the end of a chunk, take the longest dictionary word that
    ends there, else the single character. Whitespace in the test line is kept as a boundary."""

    def __init__(self, words: Iterable[str], *, max_length: int = 12) -> None:
        self.words = frozenset(word for word in words if word)
        lengths = {len(word) for word in self.words if 1 < len(word) <= max_length}
        self.lengths = sorted(lengths, reverse=True)

    def segment_chunk(self, chunk: str) -> list[str]:
        words: list[str] = []
        end = len(chunk)
        vocabulary = self.words
        while end > 0:
            step = 1
            for length in self.lengths:
                if length <= end and chunk[end - length : end] in vocabulary:
                    step = length
                    break
            words.append(chunk[end - step : end])
            end -= step
        words.reverse()
        return words

    def segment_line(self, line: str) -> list[str]:
        return [word for chunk in line_words(line) for word in self.segment_chunk(chunk)]


def backward_maxmatch_lines(test_text: str, words: Iterable[str]) -> list[list[str]]:
    matcher = BackwardMaxMatcher(words)
    return [matcher.segment_line(line) for line in text_lines(test_text)]


def backward_maxmatch_run(
    test_text: str, words: Iterable[str], *, run_format: RunFormat | None = None
) -> str:
    """A run: the test text segmented by backward maximum matching with ``words``."""
    return (run_format or RunFormat()).render(backward_maxmatch_lines(test_text, words))


def word_list(path: Path) -> list[str]:
    """The words of a training word list (one a line, surrounding whitespace dropped)."""
    text = path.read_bytes().decode("utf-8")
    return [word for word in (line.strip() for line in text_lines(text)) if word]
