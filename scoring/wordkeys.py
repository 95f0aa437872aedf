"""Exact dictionary look-ups for many words at once, without a Python string per word.

A word of up to 32 UTF-8 bytes (ten Chinese characters) is packed exactly into four 64-bit
integers; with its length that is a key equal for two words exactly when their bytes are. Keys are
hashed to one integer for a sorted search, and every hit is confirmed on the full key, so a hash
collision can never turn an OOV word into an IV one. Longer words go through a Python set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .io import UTF8

Words = npt.NDArray[np.uint64]
Positions = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

WIDTH = 32  # bytes packed exactly into four uint64: ten Chinese characters
_PARTS = WIDTH // 8
_MIX = (
    np.uint64(0x9E3779B97F4A7C15),
    np.uint64(0xC2B2AE3D27D4EB4F),
    np.uint64(0x165667B19E3779F9),
    np.uint64(0x27D4EB2F165667C5),
    np.uint64(0x85EBCA77C2B2AE63),
)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def pack(compact: npt.NDArray[np.uint8], starts: Positions, lengths: Positions) -> Words:
    """The first 32 bytes of each word as four little-endian uint64 (zero-padded): shape (n, 4).

    Reads eight bytes at any offset through a strided uint64 view of the buffer, so each part of
    every key is one gather.
    """
    padded = np.zeros(compact.size + WIDTH, np.uint8)
    padded[: compact.size] = compact
    at_offset = np.ndarray(
        shape=(compact.size + WIDTH - 7,), dtype="<u8", buffer=padded, strides=(1,)
    )
    keys = np.empty((starts.size, _PARTS), np.uint64)
    for part in range(_PARTS):
        taken = np.clip(lengths - 8 * part, 0, 8).astype(np.uint64)
        with np.errstate(over="ignore"):
            mask = np.where(
                taken == 8, _ALL, (np.uint64(1) << (taken * np.uint64(8))) - np.uint64(1)
            )
        keys[:, part] = at_offset[starts + 8 * part] & mask
    return keys


def mix(keys: Words, lengths: Positions) -> Words:
    with np.errstate(over="ignore"):
        h = lengths.astype(np.uint64) * _MIX[_PARTS]
        for part in range(_PARTS):
            h += keys[:, part] * _MIX[part]
        h ^= h >> np.uint64(29)
        h *= _MIX[0]
        h ^= h >> np.uint64(32)
    return h


@dataclass(frozen=True, eq=False)
class WordKeys:
    """A set of words laid out for vectorised membership tests."""

    hashes: Words  # sorted
    keys: Words  # (n, 4), in the order of hashes
    lengths: Positions
    long_words: frozenset[str]
    # Two different words whose hashes collide: then the sorted search could miss one of them, so
    # membership falls back to a Python set (never seen in practice, but exactness costs nothing).
    fallback: frozenset[str] | None

    @classmethod
    def from_spans(
        cls, compact: npt.NDArray[np.uint8], starts: Positions, ends: Positions
    ) -> WordKeys:
        lengths = ends - starts
        short = lengths <= WIDTH
        long_words = frozenset(_decode_spans(compact, starts[~short], ends[~short]))
        starts, lengths = starts[short], lengths[short]
        keys = pack(compact, starts, lengths)
        hashes = mix(keys, lengths)
        order = np.argsort(hashes)
        sorted_hashes, keys, sorted_lengths = hashes[order], keys[order], lengths[order]
        same_hash = sorted_hashes[1:] == sorted_hashes[:-1]
        distinct = np.any(keys[1:] != keys[:-1], axis=1) | (
            sorted_lengths[1:] != sorted_lengths[:-1]
        )
        fallback = None
        if np.any(same_hash & distinct):
            fallback = frozenset(_decode_spans(compact, starts, starts + lengths)) | long_words
        return cls(sorted_hashes, keys, sorted_lengths, long_words, fallback)

    def contains(self, compact: npt.NDArray[np.uint8], starts: Positions, ends: Positions) -> Mask:
        """For each word span of ``compact``, whether the word is in this set."""
        lengths = ends - starts
        if self.fallback is not None:
            words = _decode_spans(compact, starts, ends)
            return np.fromiter(map(self.fallback.__contains__, words), np.bool_, len(words))
        found = np.zeros(starts.size, np.bool_)
        short = lengths <= WIDTH
        if self.hashes.size:
            keys = pack(compact, starts, lengths)
            hashes = mix(keys, lengths)
            at = np.minimum(np.searchsorted(self.hashes, hashes), self.hashes.size - 1)
            found = (
                short
                & (self.hashes[at] == hashes)
                & (self.lengths[at] == lengths)
                & np.all(self.keys[at] == keys, axis=1)
            )
        long_at = np.flatnonzero(~short)
        if long_at.size and self.long_words:
            words = _decode_spans(compact, starts[long_at], ends[long_at])
            found[long_at] = np.fromiter(map(self.long_words.__contains__, words), np.bool_)
        return found


def _decode_spans(
    compact: npt.NDArray[np.uint8], starts: Iterable[int], ends: Iterable[int]
) -> list[str]:
    raw = compact.tobytes()
    return [raw[a:b].decode(UTF8) for a, b in zip(starts, ends, strict=True)]
