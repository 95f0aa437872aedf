"""A segmented text as numpy arrays, built without a Python loop over words.

Everything is computed on UTF-8 bytes. The *compact* form of a text keeps every byte except the
word separators (space, tab, U+3000) and the CR of a CRLF, and ends every line with LF, so two
segmentations of the same characters have byte-identical compact forms, and a word is the span
``[start, end)`` of its bytes in it. Spans in bytes compare exactly as spans in characters do
(docs/measures/scoring.md), and no code point array four times the size of the text is ever
built.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .text import UTF8, to_utf8

LF = 0x0A
_CHUNK_BYTES = 4 << 20  # large enough to amortise numpy calls, small enough to bound temporaries
_BOM = b"\xef\xbb\xbf"

Bytes = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]
Positions = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Segmentation:
    """``compact`` bytes (every line ended by LF) and ``word_start``, True where a word begins."""

    compact: Bytes
    word_start: Mask

    @property
    def size(self) -> int:
        return int(self.compact.size)

    @cached_property
    def word_count(self) -> int:
        return int(np.count_nonzero(self.word_start))

    @cached_property
    def _line_ends(self) -> Positions:
        return np.flatnonzero(self.compact == LF)

    def line_ends(self) -> Positions:
        """Positions of the LF that ends each line."""
        return self._line_ends

    def line_bytes(self, line_index: int) -> bytes:
        """The compact bytes of one line (0-based), without its LF."""
        return line_bytes(self, line_index)

    def line_words(self, line_index: int) -> list[str]:
        """The words of one line (0-based), decoded."""
        start, stop = line_span(self, line_index)
        cuts = [*np.flatnonzero(self.word_start[start:stop]).tolist(), stop - start]
        raw = self.compact[start:stop].tobytes()
        return [raw[a:b].decode(UTF8) for a, b in pairwise(cuts)]

    def boundaries(self) -> Mask:
        """True where a word or a line's LF begins: where a run cuts the text."""
        boundary: Mask = self.compact == LF
        boundary |= self.word_start
        return boundary


class Lines(Protocol):
    """Compact bytes cut into lines: a Segmentation or a gold index."""

    @property
    def compact(self) -> Bytes: ...

    def line_ends(self) -> Positions: ...


def line_span(text: Lines, line_index: int) -> tuple[int, int]:
    """Start and end (the LF) of a line in the compact bytes."""
    ends = text.line_ends()
    start = int(ends[line_index - 1]) + 1 if line_index > 0 else 0
    return start, int(ends[line_index])


def line_bytes(text: Lines, line_index: int) -> bytes:
    start, stop = line_span(text, line_index)
    return text.compact[start:stop].tobytes()


def parse(data: bytes | str, encoding: str = UTF8) -> Segmentation:
    """The segmentation of a text given as a str or as bytes in ``encoding`` (checked strictly)."""
    if isinstance(data, str):
        utf8 = data.encode(UTF8)
        if utf8.startswith(_BOM):
            utf8 = utf8[len(_BOM) :]
    else:
        utf8 = to_utf8(data, encoding)
    return _parse_pieces(_line_aligned_pieces([utf8]))


def parse_utf8(data: bytes) -> Segmentation:
    """The segmentation of UTF-8 bytes already checked (by ``to_utf8``), without a BOM."""
    return _parse_pieces(_line_aligned_pieces([data]))


def _line_aligned_pieces(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """Pieces of about _CHUNK_BYTES that end after an LF (the last may not)."""
    pending = b""
    for block in blocks:
        pending += block
        offset = 0
        while len(pending) - offset > _CHUNK_BYTES:
            cut = pending.find(b"\n", offset + _CHUNK_BYTES)
            if cut < 0:
                break
            yield pending[offset : cut + 1]
            offset = cut + 1
        pending = pending[offset:]
    if pending:
        yield pending


def _parse_pieces(pieces: Iterable[bytes]) -> Segmentation:
    """Parse line-aligned pieces of UTF-8, checked already."""
    compacts: list[Bytes] = []
    starts: list[Mask] = []
    for piece in pieces:
        compact, start = _parse_piece(np.frombuffer(piece, dtype=np.uint8))
        compacts.append(compact)
        starts.append(start)
    if not compacts:
        return Segmentation(np.zeros(0, np.uint8), np.zeros(0, np.bool_))
    compact, word_start = np.concatenate(compacts), np.concatenate(starts)
    if compact.size and compact[-1] != LF:
        compact = np.append(compact, np.uint8(LF))
        word_start = np.append(word_start, False)
    return Segmentation(compact, word_start)


def _parse_piece(b: Bytes) -> tuple[Bytes, Mask]:
    """Compact bytes and word starts of a piece that begins at the start of a line."""
    horizontal = (b == 0x20) | (b == 0x09)
    # A CR that ends a line (before its LF, or as the last byte of the text: every piece but the
    # last ends with an LF) belongs to the line ending; any other CR is a character of a word.
    cr = b == 0x0D
    if cr.any():
        cr[:-1] &= b[1:] == LF
        horizontal |= cr
    # U+3000 is E3 80 80; in valid UTF-8 that sequence can be nothing else.
    candidates = np.flatnonzero(b[:-2] == 0xE3)
    if candidates.size:
        ideographic = candidates[(b[candidates + 1] == 0x80) & (b[candidates + 2] == 0x80)]
        horizontal[ideographic] = True
        horizontal[ideographic + 1] = True
        horizontal[ideographic + 2] = True
    separator = horizontal | (b == LF)
    # A word begins at a byte that is no separator and follows one (or starts the piece): a
    # separator is a whole character, so the byte after it always begins a character.
    start = ~separator
    start[1:] &= separator[:-1]
    keep = ~horizontal
    return b[keep], start[keep]
