"""The gold index: everything about a gold standard that scoring a run needs, computed once.

A track's gold never changes between runs, so the platform builds this once per gold version and
scores every run against it; the command line builds it on the fly.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from .dictionary import Dictionary
from .errors import CorpusFormatError
from .io import UTF8, decode, sha256_bytes
from .segmentation import LF, Bytes, Mask, Positions, Segmentation, parse

_FORMAT = "bakeoff-gold-index/1"


@dataclass(frozen=True, eq=False)
class GoldIndex:
    """A gold standard prepared for scoring.

    ``tokens`` are the starts, in the compact bytes, of every gold word and of every line's LF (an
    LF is a token that every run matches, so line ends need no special case); ``is_word`` tells the
    words from the LFs; ``oov`` marks the gold words missing from the training word list.
    """

    segmentation: Segmentation
    tokens: Positions
    is_word: Mask
    oov: Mask
    checksum: str
    dictionary_checksum: str

    @property
    def compact(self) -> Bytes:
        return self.segmentation.compact

    @property
    def line_count(self) -> int:
        return int(self.tokens.size - self.is_word.size + np.count_nonzero(~self.is_word))

    @property
    def true_words(self) -> int:
        return int(self.oov.size)

    @property
    def oov_words(self) -> int:
        return int(np.count_nonzero(self.oov))

    # Derived arrays, computed on first use and kept: every run scored against the index needs them.
    @cached_property
    def _line_ends(self) -> Positions:
        return self.tokens[~self.is_word]

    @cached_property
    def _token_ends(self) -> Positions:
        return np.append(self.tokens[1:], self.compact.size)

    @cached_property
    def word_starts(self) -> Positions:
        return self.tokens[self.is_word]

    def line_ends(self) -> Positions:
        return self._line_ends

    def token_ends(self) -> Positions:
        return self._token_ends

    def save(self, path: str | Path) -> None:
        """Write the index to ``path`` (a .npz file)."""
        with open(path, "wb") as stream:
            stream.write(self.to_bytes())

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        header = {
            "format": _FORMAT,
            "checksum": self.checksum,
            "dictionary_checksum": self.dictionary_checksum,
        }
        np.savez(
            buffer,
            header=np.frombuffer(json.dumps(header).encode(UTF8), np.uint8),
            compact=self.compact,
            word_start=self.segmentation.word_start,
            tokens=self.tokens,
            is_word=self.is_word,
            oov=self.oov,
        )
        return buffer.getvalue()

    @classmethod
    def load(cls, path: str | Path) -> GoldIndex:
        return cls.from_bytes(Path(path).read_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> GoldIndex:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            header = json.loads(arrays["header"].tobytes().decode(UTF8))
            if header.get("format") != _FORMAT:
                raise CorpusFormatError(f"not a gold index of format {_FORMAT}")
            return cls(
                segmentation=Segmentation(arrays["compact"], arrays["word_start"]),
                tokens=arrays["tokens"],
                is_word=arrays["is_word"],
                oov=arrays["oov"],
                checksum=header["checksum"],
                dictionary_checksum=header["dictionary_checksum"],
            )


def build_gold_index(
    gold: str | bytes, dictionary: Dictionary, *, encoding: str = UTF8
) -> GoldIndex:
    """Prepare a gold standard (segmented text) for scoring against ``dictionary``."""
    text = gold if isinstance(gold, str) else decode(gold, encoding)
    segmentation = parse(text)
    is_lf = segmentation.compact == LF
    tokens = np.flatnonzero(segmentation.word_start | is_lf)
    is_word = ~is_lf[tokens]
    if not is_word.any():
        raise CorpusFormatError("the gold standard has no words")
    word_ends = np.append(tokens[1:], segmentation.size)[is_word]
    oov = ~dictionary.keys.contains(segmentation.compact, tokens[is_word], word_ends)
    return GoldIndex(
        segmentation=segmentation,
        tokens=tokens,
        is_word=is_word,
        oov=oov,
        checksum=canonical_checksum(segmentation),
        dictionary_checksum=dictionary.checksum,
    )


def canonical_checksum(segmentation: Segmentation) -> str:
    """SHA-256 of the canonical text: words joined by one space, every line ended by LF, UTF-8.

    Whitespace variants and encodings of the same segmentation share this checksum.
    """
    compact = segmentation.compact
    # A space goes before every word that does not begin its line.
    follows_word = np.zeros(compact.size, np.bool_)
    follows_word[1:] = compact[:-1] != LF
    spaced = segmentation.word_start & follows_word
    shifted = np.arange(compact.size) + np.cumsum(spaced)
    canonical = np.full(compact.size + int(np.count_nonzero(spaced)), 0x20, np.uint8)
    canonical[shifted] = compact
    return sha256_bytes(canonical.tobytes())
