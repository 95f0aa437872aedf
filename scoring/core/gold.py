"""The gold index: everything about a gold standard that scoring a run needs, computed once.

A track's gold never changes between runs, so the platform builds this once per gold version and
scores every run against it; the command line builds it on the fly.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import IO

import numpy as np

from .dictionary import Dictionary
from .errors import CorpusFormatError
from .segmentation import LF, Bytes, Mask, Positions, Segmentation, line_span, parse
from .text import UTF8

_FORMAT = "bakeoff-gold-index/2"


@dataclass(frozen=True, eq=False)
class GoldIndex:
    """A gold standard prepared for scoring.

    ``compact`` is the gold's text without separators, each line ended by LF; ``tokens`` are the
    starts, in it, of every gold word and of every line's LF (an LF is a token that every run
    matches, so line ends need no special case); ``is_word`` tells the words from the LFs; ``oov``
    marks the gold words missing from the training word list.
    """

    compact: Bytes
    tokens: Positions
    is_word: Mask
    oov: Mask
    checksum: str
    dictionary_checksum: str

    @property
    def line_count(self) -> int:
        return int(self.lf_tokens.size)

    @property
    def true_words(self) -> int:
        return int(self.oov.size)

    @property
    def oov_words(self) -> int:
        return int(np.count_nonzero(self.oov))

    # Computed on first use and kept: every run scored against the index needs them.
    @cached_property
    def lf_tokens(self) -> Positions:
        """Indices, among the tokens, of the LF that ends each line."""
        return np.flatnonzero(~self.is_word)

    # Positions are handed out as int64 whatever ``tokens`` is stored as: numpy copies a whole
    # array to compare an int32 array with int64 values (np.searchsorted, for one).
    @cached_property
    def _line_ends(self) -> Positions:
        return self.tokens[self.lf_tokens].astype(np.int64)

    def line_ends(self) -> Positions:
        return self._line_ends

    @cached_property
    def word_starts(self) -> Positions:
        return self.tokens[self.is_word].astype(np.int64)

    @cached_property
    def words_per_line(self) -> Positions:
        return np.diff(self.lf_tokens, prepend=-1) - 1

    @cached_property
    def segmentation(self) -> Segmentation:
        word_start = np.zeros(self.compact.size, np.bool_)
        word_start[self.word_starts] = True
        return Segmentation(self.compact, word_start)

    def first_word_of_line(self, line_index: int) -> int:
        """The index, among gold words, of the first word of a line."""
        return int(self.lf_tokens[line_index - 1]) + 1 - line_index if line_index else 0

    def line_words(self, line_index: int) -> list[str]:
        start, stop = line_span(self, line_index)
        first_token = int(self.lf_tokens[line_index - 1]) + 1 if line_index else 0
        starts = self.tokens[first_token : int(self.lf_tokens[line_index])]
        cuts = [*(starts - start).tolist(), stop - start]
        raw = self.compact[start:stop].tobytes()
        return [raw[a:b].decode(UTF8) for a, b in pairwise(cuts)]

    def boundaries(self, start: int, stop: int) -> Mask:
        """Where gold cuts the compact bytes in ``[start, stop)`` (word starts and LFs)."""
        mask = np.zeros(stop - start, np.bool_)
        first, last = np.searchsorted(self.tokens, np.array([start, stop], self.tokens.dtype))
        mask[self.tokens[first:last] - start] = True
        return mask

    def save(self, path: str | Path) -> None:
        """Write the index to ``path`` (a .npz file)."""
        with open(path, "wb") as stream:
            self._write(stream)

    def _write(self, stream: IO[bytes]) -> None:
        header = {
            "format": _FORMAT,
            "checksum": self.checksum,
            "dictionary_checksum": self.dictionary_checksum,
        }
        np.savez(
            stream,
            header=np.frombuffer(json.dumps(header).encode(UTF8), np.uint8),
            compact=self.compact,
            tokens=self.tokens,
            is_word=self.is_word,
            oov=self.oov,
        )

    @classmethod
    def load(cls, path: str | Path) -> GoldIndex:
        # np.load reads each array straight from the file: no copy of the whole file in memory.
        with open(path, "rb") as stream:
            return cls._read(stream)

    @classmethod
    def _read(cls, stream: IO[bytes]) -> GoldIndex:
        with np.load(stream, allow_pickle=False) as arrays:
            header = json.loads(arrays["header"].tobytes().decode(UTF8))
            if header.get("format") != _FORMAT:
                raise CorpusFormatError(
                    f"not a gold index of format {_FORMAT}: build it again from the gold"
                )
            return cls(
                compact=arrays["compact"],
                tokens=arrays["tokens"],
                is_word=arrays["is_word"],
                oov=arrays["oov"],
                checksum=header["checksum"],
                dictionary_checksum=header["dictionary_checksum"],
            )


def build_gold_index(
    gold: str | bytes, dictionary: Dictionary, *, encoding: str = UTF8
) -> GoldIndex:
    """Prepare a gold standard (segmented text) for scoring against ``dictionary``.

    >>> words = Dictionary.from_words(["结婚", "的"])
    >>> gold = build_gold_index("结婚 的 和尚\\n我 爱 北京\\n", words)
    >>> gold.true_words, gold.line_count, gold.oov_words
    (6, 2, 4)
    """
    segmentation = parse(gold, encoding)
    is_lf = segmentation.compact == LF
    tokens = np.flatnonzero(segmentation.word_start | is_lf)
    if segmentation.size < 2**31:
        tokens = tokens.astype(np.int32)  # half the memory of a ten-million-word index
    is_word = ~is_lf[tokens]
    if not is_word.any():
        raise CorpusFormatError("the gold standard has no words")
    word_ends = np.append(tokens[1:], segmentation.size)[is_word]
    oov = ~dictionary.keys.contains(segmentation.compact, tokens[is_word], word_ends)
    return GoldIndex(
        compact=segmentation.compact,
        tokens=tokens,
        is_word=is_word,
        oov=oov,
        checksum=canonical_checksum(segmentation),
        dictionary_checksum=dictionary.checksum,
    )


def gold_checksum(gold: str | bytes, *, encoding: str = UTF8) -> str:
    r"""The checksum a gold standard's scores name in their signature (``gold_checksum``), and
    the one ``python -m scoring score`` prints: SHA-256 of its canonical text, so it matches
    whatever whitespace or encoding the file used (``canonical_checksum``).

    >>> gold_checksum("结婚 的\n") == gold_checksum("结婚\u3000的\r\n")
    True
    """
    return canonical_checksum(parse(gold, encoding))


def canonical_checksum(segmentation: Segmentation) -> str:
    """SHA-256 of the canonical text: words joined by one space, every line ended by LF, UTF-8.

    Whitespace variants and encodings of the same segmentation share this checksum. It is hashed
    in pieces that end with a line, so a large corpus never needs its canonical text in memory.
    """
    digest = hashlib.sha256()
    compact, word_start = segmentation.compact, segmentation.word_start
    line_ends = segmentation.line_ends()
    start = 0
    while start < compact.size:
        last_line = min(int(np.searchsorted(line_ends, start + _PIECE)), line_ends.size - 1)
        stop = int(line_ends[last_line]) + 1
        piece = compact[start:stop]
        # A space goes before every word that does not begin its line.
        follows_word = np.zeros(piece.size, np.bool_)
        follows_word[1:] = piece[:-1] != LF
        spaced = word_start[start:stop] & follows_word
        shifted = np.arange(piece.size) + np.cumsum(spaced)
        canonical = np.full(piece.size + int(np.count_nonzero(spaced)), 0x20, np.uint8)
        canonical[shifted] = piece
        digest.update(canonical.tobytes())
        start = stop
    return "sha256:" + digest.hexdigest()


_PIECE = 1 << 22
