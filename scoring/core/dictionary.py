"""Training word lists (docs/validation.md): which gold words are in vocabulary."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from .segmentation import LF, Bytes, Positions, parse, parse_utf8
from .text import UTF8, sha256_bytes, to_utf8
from .wordkeys import WordKeys, decode_spans


@dataclass(frozen=True, eq=False)
class Dictionary:
    """A set of words, kept as spans of one UTF-8 buffer so that look-ups can be vectorised.

    ``checksum`` is the SHA-256 of the list as one word a line (LF), in the order given, with
    blank lines and surrounding whitespace removed.

    >>> words = Dictionary.from_word_list("结婚\\n和尚\\n")
    >>> sorted(words.words), "和尚" in words.words
    (['和尚', '结婚'], True)
    """

    compact: Bytes
    starts: Positions
    ends: Positions
    checksum: str

    @classmethod
    def from_word_list(cls, text: str | bytes, encoding: str = UTF8) -> Dictionary:
        """One word a line (``text`` as a str, or bytes in ``encoding``). A line with whitespace
        inside is no word (the Perl scorer's look-up could never match it either) and is left
        out."""
        if isinstance(text, bytes):
            data = to_utf8(text, encoding)
            if _is_plain_list(data):
                return cls._from_plain_list(data)
            segmentation = parse_utf8(data)
        else:
            segmentation = parse(text)
        compact = segmentation.compact
        line_ends = segmentation.line_ends()
        starts = np.flatnonzero(segmentation.word_start)
        line_starts = np.concatenate(([0], line_ends[:-1] + 1))
        if np.array_equal(starts, line_starts):  # one word on every line: the usual case
            return cls(compact, starts, line_ends, sha256_bytes(compact.tobytes()))
        line_of_word = np.searchsorted(line_ends, starts)
        words_in_line = np.bincount(line_of_word, minlength=line_ends.size)
        single = words_in_line[line_of_word] == 1
        starts, ends = starts[single], line_ends[line_of_word[single]]
        if not np.all(words_in_line == 1):
            line_lengths = np.diff(line_ends, prepend=-1)
            compact = compact[np.repeat(words_in_line == 1, line_lengths)]
            kept_ends = np.flatnonzero(compact == LF)
            starts = np.concatenate(([0], kept_ends[:-1] + 1)) if kept_ends.size else kept_ends
            ends = kept_ends
        return cls(
            compact, starts.astype(np.int64), ends.astype(np.int64), sha256_bytes(compact.tobytes())
        )

    @classmethod
    def _from_plain_list(cls, data: bytes) -> Dictionary:
        if not data.endswith(b"\n"):
            data += b"\n"
        compact = np.frombuffer(data, np.uint8)
        ends = np.flatnonzero(compact == LF)
        starts = np.concatenate(([0], ends[:-1] + 1))
        return cls(compact, starts, ends, sha256_bytes(data))

    @classmethod
    def from_words(cls, words: Iterable[str]) -> Dictionary:
        return cls.from_word_list("".join(f"{word}\n" for word in words))

    @classmethod
    def from_segmented(cls, text: str) -> Dictionary:
        """The word types of a segmented corpus, in order of first occurrence."""
        segmentation = parse(text)
        starts = np.flatnonzero(segmentation.word_start)
        boundaries = np.flatnonzero(segmentation.word_start | (segmentation.compact == LF))
        ends = boundaries[np.searchsorted(boundaries, starts, side="right")]
        words = decode_spans(segmentation.compact, starts, ends)
        return cls.from_words(dict.fromkeys(words))

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(decode_spans(self.compact, self.starts, self.ends))

    @cached_property
    def keys(self) -> WordKeys:
        return WordKeys.from_spans(self.compact, self.starts, self.ends)

    def __contains__(self, word: object) -> bool:
        return word in self.words

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)


def _is_plain_list(data: bytes) -> bool:
    """One word on every line, LF endings, no whitespace: the compact form is the file itself."""
    return not (
        data.startswith(b"\n")
        or b"\n\n" in data
        or any(separator in data for separator in (b" ", b"\t", b"\r", "\u3000".encode()))
    )


def read_dictionary(path: str | Path, encoding: str = UTF8) -> Dictionary:
    return Dictionary.from_word_list(Path(path).read_bytes(), encoding)


EMPTY_DICTIONARY = Dictionary.from_words(())
