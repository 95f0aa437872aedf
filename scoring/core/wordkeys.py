"""Exact dictionary look-ups for many words at once, without a Python string per word.

A word of up to 32 UTF-8 bytes (ten Chinese characters) is packed exactly into four 64-bit
integers; with its length that is a key equal for two words exactly when their bytes are. Keys are
hashed to one integer to find a candidate, and every hit is confirmed on the full key, so a hash
collision can never turn an OOV word into an IV one. Longer words go through a Python set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .text import UTF8

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
_BLOCK = 1 << 20


def pack(compact: npt.NDArray[np.uint8], starts: Positions, lengths: Positions) -> Words:
    """The first 32 bytes of each word as four little-endian uint64 (zero-padded): shape (n, 4).

    Reads eight bytes at any offset through a strided uint64 view of the buffer, so each part of
    every key is one gather; a part is read only for the words long enough to reach it.
    """
    padded = np.zeros(compact.size + WIDTH, np.uint8)
    padded[: compact.size] = compact
    at_offset = np.ndarray(
        shape=(compact.size + WIDTH - 7,), dtype="<u8", buffer=padded, strides=(1,)
    )
    keys = np.zeros((starts.size, _PARTS), np.uint64)
    reaching = np.arange(starts.size)
    for part in range(_PARTS):
        if part:
            reaching = reaching[lengths[reaching] > 8 * part]
            if not reaching.size:
                break
        taken = np.minimum(lengths[reaching] - 8 * part, 8).astype(np.uint64)
        with np.errstate(over="ignore"):
            mask = np.where(
                taken == 8, _ALL, (np.uint64(1) << (taken * np.uint64(8))) - np.uint64(1)
            )
        keys[reaching, part] = at_offset[starts[reaching] + 8 * part] & mask
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
    """A set of words laid out for vectorised membership tests.

    A direct-address table, indexed by the top bits of each word's hash, holds one entry per slot;
    entries that lose their slot to another go to a small overflow list sorted by hash. A look-up
    is a gather and an exact comparison of keys, with a binary search of the overflow only for the
    words the table did not find.
    """

    keys: Words  # (n, 4)
    lengths: Positions
    hashes: Words
    table: npt.NDArray[np.int32]  # slot -> entry, or -1
    shift: int
    overflow: npt.NDArray[np.int64]  # entries without a slot, sorted by hash
    overflow_hashes: Words
    long_words: frozenset[bytes]  # compared as UTF-8 bytes: equal bytes are equal characters

    @classmethod
    def from_spans(
        cls, compact: npt.NDArray[np.uint8], starts: Positions, ends: Positions
    ) -> WordKeys:
        lengths = ends - starts
        short = lengths <= WIDTH
        long_words = frozenset(_spans(compact, starts[~short], ends[~short]))
        starts, lengths = starts[short], lengths[short]
        keys = pack(compact, starts, lengths)
        hashes = mix(keys, lengths)
        bits = max(10, (4 * hashes.size).bit_length())
        shift = 64 - bits
        slots = (hashes >> np.uint64(shift)).astype(np.int64)
        table = np.full(1 << bits, -1, np.int32)
        entries = np.arange(hashes.size, dtype=np.int32)
        table[slots] = entries
        overflow = np.flatnonzero(table[slots] != entries)
        overflow = overflow[np.argsort(hashes[overflow])]
        return cls(keys, lengths, hashes, table, shift, overflow, hashes[overflow], long_words)

    def contains(self, compact: npt.NDArray[np.uint8], starts: Positions, ends: Positions) -> Mask:
        """For each word span of ``compact``, whether the word is in this set."""
        if starts.size <= _BLOCK:
            return self._contains(compact, starts, ends)
        # In blocks, so that the packed keys of ten million words are never all in memory.
        return np.concatenate(
            [
                self._contains(compact, starts[at : at + _BLOCK], ends[at : at + _BLOCK])
                for at in range(0, starts.size, _BLOCK)
            ]
        )

    def _contains(self, compact: npt.NDArray[np.uint8], starts: Positions, ends: Positions) -> Mask:
        lengths = ends - starts
        short = lengths <= WIDTH
        keys = pack(compact, starts, lengths)
        hashes = mix(keys, lengths)
        entry = self.table[(hashes >> np.uint64(self.shift)).astype(np.int64)]
        found = short & (entry >= 0)
        found &= self._same(np.maximum(entry, 0), keys, lengths, hashes)
        rest = np.flatnonzero(short & ~found)
        if rest.size and self.overflow.size:
            low = np.searchsorted(self.overflow_hashes, hashes[rest], side="left")
            high = np.searchsorted(self.overflow_hashes, hashes[rest], side="right")
            single = high - low == 1
            candidate = self.overflow[np.minimum(low, self.overflow.size - 1)]
            found[rest[single]] = self._same(candidate, keys[rest], lengths[rest], hashes[rest])[
                single
            ]
            # Several overflow entries with one hash: a repeated word, or (rarely) a collision.
            for position in np.flatnonzero(high - low > 1).tolist():
                query = int(rest[position])
                candidates = self.overflow[low[position] : high[position]]
                found[query] = bool(
                    self._same(
                        candidates,
                        np.repeat(keys[query : query + 1], candidates.size, axis=0),
                        np.repeat(lengths[query : query + 1], candidates.size),
                        np.repeat(hashes[query : query + 1], candidates.size),
                    ).any()
                )
        long_at = np.flatnonzero(~short)
        if long_at.size and self.long_words:
            words = _spans(compact, starts[long_at], ends[long_at])
            found[long_at] = np.fromiter(map(self.long_words.__contains__, words), np.bool_)
        return found

    def _same(
        self,
        entries: npt.NDArray[np.int64] | npt.NDArray[np.int32],
        keys: Words,
        lengths: Positions,
        hashes: Words,
    ) -> Mask:
        if not self.hashes.size:
            return np.zeros(entries.size, np.bool_)
        same: Mask = (self.hashes[entries] == hashes) & (self.lengths[entries] == lengths)
        # Equal lengths leave the parts past a word's end zero on both sides: compare a part
        # only where the words reach it.
        check = np.flatnonzero(same)
        for part in range(_PARTS):
            if part:
                check = check[lengths[check] > 8 * part]
            if not check.size:
                break
            same[check] &= self.keys[entries[check], part] == keys[check, part]
        return same


def _spans(compact: npt.NDArray[np.uint8], starts: Positions, ends: Positions) -> list[bytes]:
    raw = compact.tobytes()
    return [raw[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]


def decode_spans(
    compact: npt.NDArray[np.uint8], starts: Iterable[int], ends: Iterable[int]
) -> list[str]:
    raw = compact.tobytes()
    return [raw[a:b].decode(UTF8) for a, b in zip(starts, ends, strict=True)]
