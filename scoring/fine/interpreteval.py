"""The ``interpreteval`` bucket scheme (docs/measures/buckets.md#the-interpreteval-scheme): the
conventions of InterpretEval, the code behind the RethinkCWS tables (Fu et al. 2020), so that a
track's buckets line up with the papers'.

Where it differs from the default scheme:

* ψ (wCon) is rounded to 3 decimals, as are the per-character consistency (cCon) and both
  frequencies;
* wFre is the number of occurrences of the word's *string* in the training text (for a training
  word; 0 for any other string), divided by the second-largest such number over the training
  words; cFre likewise over characters. Values above that second-largest are 1;
* cFre and cCon are attributes of characters, not words: every character of the gold and of a
  run is one item of those buckets, and a character counts as correct when the gold word and the
  run word that hold it have the same length (InterpretEval keys a character by its position and
  its word's B/M/E/S tags) and its value falls in the same bucket on both sides;
* oDen is the share of the sentence's characters that occur in no training word (instead of the
  share of its words that are OOV);
* ranges are cut greedily: after the fixed values ({0} for the frequencies and oDen, {1} and {2}
  for wLen), the sorted distinct gold values are taken in order and a bucket is closed as soon as
  it holds more than its share (the remaining items over the remaining buckets), 4 buckets in
  all.

InterpretEval then drops every run item whose value lies on a range's lower bound or between two
ranges; here every run item is kept and goes to the bucket that tiles its value, the one intended
departure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..core.segmentation import LF, Mask, Segmentation
from .schemes import ATTRIBUTES, INTERPRETEVAL_SCHEME_NAME, AttributeScheme, Bound, BucketScheme

if TYPE_CHECKING:
    from ..core.dictionary import Dictionary
    from ..core.score import ScoredRun
    from .attributes import TrainingText, WordValues

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

NAME = INTERPRETEVAL_SCHEME_NAME
#: The attributes of characters, not words.
CHARACTER_ATTRIBUTES = ("cFre", "cCon")
DECIMALS = 3
BUCKETS = 4
#: Values that are buckets of their own, ahead of the greedy ranges (InterpretEval's settings
#: for Chinese word segmentation).
FIXED_VALUES: Mapping[str, tuple[float, ...]] = {
    "wLen": (1.0, 2.0),
    "sLen": (),
    "oDen": (0.0,),
    "wFre": (0.0,),
    "cFre": (0.0,),
}
_B, _M, _E, _S = range(4)


def rounded(value: float) -> float:
    """``value`` to 3 decimals as InterpretEval writes it (``'%.3f'``, read back as a float):
    correctly rounded from the binary value, which ``np.round`` is not."""
    return float(f"{value:.{DECIMALS}f}")


def normaliser(counts: Iterable[int]) -> int:
    """The second-largest count (the largest when there is one; 0 for none)."""
    ordered = sorted(counts, reverse=True)
    return ordered[1] if len(ordered) > 1 else (ordered[0] if ordered else 0)


def relative(count: int, second: int) -> float:
    """A count over the second-largest, rounded; 1 above it, 0 for no occurrence."""
    if not count or not second:
        return 0.0
    return 1.0 if count > second else rounded(count / second)


# -- values -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TrainingTables:
    """What the scheme looks up in the training corpus: per training word, its relative string
    frequency and its rounded ψ; per training character (by code point, sorted), its relative
    frequency and its rounded consistency with each of the tags B, M, E, S."""

    word_frequency: Mapping[str, float]
    word_consistency: Mapping[str, float]
    code_points: npt.NDArray[np.uint32]
    char_frequency: FloatArray
    char_consistency: FloatArray  # (characters, 4)

    @classmethod
    def of(cls, training: TrainingText) -> TrainingTables:
        counts, as_words = interpreteval_counts(training)
        second = normaliser(counts.values())
        word_frequency = {w: relative(c, second) for w, c in counts.items()}
        word_consistency = {w: rounded(as_words[w] / c) for w, c in counts.items()}
        chars = sorted(training.char_tags)
        totals = [sum(training.char_tags[c]) for c in chars]
        second_char = normaliser(totals)
        consistency = np.array(
            [
                [rounded(n / total) for n in training.char_tags[c]]
                for c, total in zip(chars, totals, strict=True)
            ],
            np.float64,
        ).reshape(len(chars), 4)
        return cls(
            word_frequency=word_frequency,
            word_consistency=word_consistency,
            code_points=np.array([ord(c) for c in chars], np.uint32),
            char_frequency=np.array([relative(t, second_char) for t in totals], np.float64),
            char_consistency=consistency,
        )

    def word_values(self, strings: Sequence[str]) -> dict[str, FloatArray]:
        """wFre and wCon of each string (0 for a string that is no training word)."""
        n = len(strings)
        frequency, consistency = self.word_frequency, self.word_consistency
        return {
            "wFre": np.fromiter((frequency.get(s, 0.0) for s in strings), np.float64, n),
            "wCon": np.fromiter((consistency.get(s, 0.0) for s in strings), np.float64, n),
        }

    def character_values(self, characters: Characters) -> dict[str, FloatArray]:
        """cFre and cCon of each character (0 for one that never occurs in training)."""
        found, at = _look_up(self.code_points, characters.code_points)
        frequency = np.zeros(at.size)
        consistency = np.zeros(at.size)
        frequency[found] = self.char_frequency[at[found]]
        consistency[found] = self.char_consistency[at[found], characters.tag[found]]
        return {"cFre": frequency, "cCon": consistency}


def _look_up(
    sorted_points: npt.NDArray[np.uint32], points: npt.NDArray[np.uint32]
) -> tuple[Mask, IntArray]:
    at: IntArray = np.minimum(
        np.searchsorted(sorted_points, points), max(sorted_points.size - 1, 0)
    ).astype(np.int64)
    found: Mask = (
        sorted_points[at] == points if sorted_points.size else np.zeros(points.size, np.bool_)
    )
    return found, at


@dataclass(frozen=True, eq=False)
class Characters:
    """The characters of a segmentation, line breaks left out, in text order: code point, line,
    the word that holds each (its index among the words), that word's length and the character's
    B/M/E/S tag in it."""

    code_points: npt.NDArray[np.uint32]
    line: IntArray
    word: IntArray
    word_length: IntArray
    tag: IntArray

    @classmethod
    def of(cls, segmentation: Segmentation) -> Characters:
        compact = segmentation.compact
        text = compact.tobytes().decode("utf-8")
        points = np.frombuffer(text.encode("utf-32-le"), np.uint32)
        lead = (compact & 0xC0) != 0x80  # one lead byte per character, LF included
        starts = segmentation.word_start[lead]
        is_lf = points == LF
        keep = ~is_lf
        line = np.cumsum(is_lf)[keep]
        starts = starts[keep]
        word = np.cumsum(starts) - 1
        lengths = np.bincount(word, minlength=int(word[-1]) + 1 if word.size else 0)
        word_length = lengths[word]
        first = np.flatnonzero(starts)
        offset = np.arange(word.size) - first[word]
        tag = np.where(
            word_length == 1,
            _S,
            np.where(offset == 0, _B, np.where(offset == word_length - 1, _E, _M)),
        )
        return cls(
            points[keep].copy(),
            line.astype(np.int64),
            word.astype(np.int64),
            word_length.astype(np.int64),
            tag.astype(np.int64),
        )

    @property
    def size(self) -> int:
        return int(self.code_points.size)


def oov_character_density(segmentation: Segmentation, dictionary: Dictionary) -> FloatArray:
    """Per line, the share of its characters that occur in no word of the training word list
    (0 for an empty line)."""
    characters = Characters.of(segmentation)
    words = dictionary.compact.tobytes().decode("utf-8")
    known = np.unique(np.frombuffer(words.encode("utf-32-le"), np.uint32))
    known = known[known != LF]
    found, _ = _look_up(known, characters.code_points)
    lines = int(segmentation.line_ends().size)
    per_line = np.bincount(characters.line, minlength=lines)
    unknown = np.bincount(characters.line[~found], minlength=lines)
    density: FloatArray = np.divide(
        unknown, per_line, out=np.zeros(lines), where=per_line > 0, dtype=np.float64
    )
    return density


def character_pairs(
    run: ScoredRun, gold_characters: Characters, run_characters: Characters
) -> tuple[IntArray, IntArray]:
    """The gold and run characters that InterpretEval may count as correct, as two index arrays:
    on a line whose characters are the gold's, the characters at the same position whose words
    have the same length; on a line scored by character alignment, the characters of the gold
    words found and of the run words that match them."""
    aligned = np.array([n - 1 for n in run.score.aligned_lines], np.int64)
    gold_plain = ~np.isin(gold_characters.line, aligned)
    run_plain = ~np.isin(run_characters.line, aligned)
    gold_at, run_at = np.flatnonzero(gold_plain), np.flatnonzero(run_plain)
    same = gold_characters.word_length[gold_at] == run_characters.word_length[run_at]
    gold_pairs, run_pairs = [gold_at[same]], [run_at[same]]
    if aligned.size:
        # The k-th correct gold word is the k-th correct run word (both in corpus order).
        gold_words = np.flatnonzero(run.gold_correct)
        run_words = np.flatnonzero(run.run_correct)
        gold_first = np.searchsorted(gold_characters.word, gold_words)
        run_first = np.searchsorted(run_characters.word, run_words)
        on_aligned = np.isin(gold_characters.line[gold_first], aligned)
        firsts = zip(gold_first[on_aligned].tolist(), run_first[on_aligned].tolist(), strict=True)
        for g, r in firsts:
            length = int(gold_characters.word_length[g])
            gold_pairs.append(np.arange(g, g + length))
            run_pairs.append(np.arange(r, r + length))
    return np.concatenate(gold_pairs), np.concatenate(run_pairs)


def interpreteval_counts(training: TrainingText) -> tuple[dict[str, int], dict[str, int]]:
    """For every training word type, as InterpretEval counts them: the occurrences of its string
    in the training text with the sentences run together (no separator between them, so an
    occurrence may straddle two), taken left to right without overlapping one another (as a
    regular expression finds them), and how many of those occurrences are the word itself (the
    characters carry the word's own B...E or S tags).

    One Aho-Corasick pass finds every occurrence; only the strings that can overlap themselves
    (一一, ——, １９９１) are thinned out by hand.
    """
    import ahocorasick  # type: ignore[import-not-found]  # pyahocorasick ships no stubs

    text = training.text
    line_break = np.frombuffer(text.encode("utf-32-le"), np.uint32) == LF
    joined = text.replace("\n", "")
    starts = training.word_starts[~line_break]
    starts_before = np.concatenate(([0], np.cumsum(starts)))  # word starts before each position
    ends_word = np.append(starts[1:], True)  # a word ends at i when one starts at i + 1
    counts: dict[str, int] = {}
    as_words: dict[str, int] = {}
    types = list(training.word_counts)
    searched = [w for w in types if len(w) > 1]
    for word in types:
        if len(word) == 1:  # every occurrence of a character; a word where tagged S
            counts[word] = sum(training.char_tags[word])
            as_words[word] = training.char_tags[word][_S]
    if not searched:
        return counts, as_words
    automaton = ahocorasick.Automaton()
    for position, word in enumerate(searched):
        automaton.add_word(word, position)
    automaton.make_automaton()
    n = len(searched)
    codes = np.fromiter((end * n + at for end, at in automaton.iter(joined)), np.int64)
    ends, ids = np.divmod(codes, n)
    lengths = np.fromiter(map(len, searched), np.int64, n)
    first = ends - lengths[ids] + 1
    # The occurrence is the word itself: a word starts at its first character, none inside it,
    # and one ends at its last.
    is_word = starts[first] & (starts_before[ends + 1] - starts_before[first + 1] == 0)
    is_word &= ends_word[ends]
    overlapping = np.fromiter(map(_overlaps_itself, searched), np.bool_, n)
    plain = ~overlapping[ids]
    found = np.bincount(ids[plain], minlength=n)
    found_words = np.bincount(ids[plain & is_word], minlength=n)
    for position in np.flatnonzero(overlapping).tolist():
        chosen = _left_to_right(first[ids == position], int(lengths[position]))
        found[position] = chosen.size
        found_words[position] = int(np.count_nonzero(is_word[ids == position][chosen]))
    for position, word in enumerate(searched):
        counts[word] = int(found[position])
        as_words[word] = int(found_words[position])
    return counts, as_words


def _overlaps_itself(word: str) -> bool:
    """Whether two occurrences of ``word`` can overlap: some proper prefix is also a suffix."""
    return any(word[:k] == word[-k:] for k in range(1, len(word)))


def _left_to_right(starts: IntArray, length: int) -> IntArray:
    """The indices of the occurrences (at sorted ``starts``) a left-to-right search keeps: each
    one that begins after the last kept one has ended."""
    kept = []
    free = -1
    for index, start in enumerate(starts.tolist()):
        if start >= free:
            kept.append(index)
            free = start + length
    return np.array(kept, np.int64)


# -- the scheme -------------------------------------------------------------------------------


def scheme_from_gold(values: WordValues) -> BucketScheme:
    """The interpreteval scheme for the attributes given, cut at the gold values (of gold words,
    or of gold characters for cFre and cCon)."""
    schemes = []
    for name in ATTRIBUTES:
        if name in values.values:
            schemes.append(AttributeScheme(name, bounds(name, values.values[name])))
        elif values.characters is not None and name in values.characters.values:
            array = values.characters.values[name]
            schemes.append(AttributeScheme(name, bounds(name, array), unit="character"))
    return BucketScheme(tuple(schemes), name=NAME)


def bounds(attribute: str, gold_values: FloatArray) -> tuple[Bound, ...]:
    if attribute in ("wCon", "cCon"):
        # InterpretEval's (0.5, 0.9999]: the same values, once rounded to 3 decimals.
        return (
            Bound(0, 0, True, True),
            Bound(0, 0.5, False, True),
            Bound(0.5, 1, False, False),
            Bound(1, 1, True, True),
        )
    if attribute not in FIXED_VALUES:
        raise ValueError(f"unknown attribute {attribute!r}")
    return greedy_bounds(gold_values, BUCKETS, FIXED_VALUES[attribute])


def greedy_bounds(
    gold_values: FloatArray, buckets: int, fixed: Sequence[float]
) -> tuple[Bound, ...]:
    """InterpretEval's cut: each fixed value that occurs is a bucket of its own; the other values,
    distinct and sorted, are taken in order into the remaining buckets, one closed as soon as it
    holds more than (items left over) / (buckets left over) items.

    The buckets then tile the line: a range reaches down to the bucket below it, (its high, the
    next high], so that every value, a run's included, has a bucket; the lowest range is closed
    at its lowest gold value when no fixed value lies below it.

    >>> [b.label for b in greedy_bounds(np.array([0, 0, 1, 1, 2, 3, 3, 3, 5.0]), 4, (0.0,))]
    ['{0}', '(0, 2]', '(2, 3]', '(3, 5]']
    """
    values, counts = np.unique(np.asarray(gold_values, np.float64), return_counts=True)
    present = [v for v in fixed if v in set(values.tolist())]
    rest = ~np.isin(values, present)
    if present and rest.any() and values[rest].min() < max(present):
        raise ValueError("fixed values must lie below the values cut greedily")
    left = buckets - len(present)
    share = counts[rest].sum() / left if left > 0 else math.inf
    highs: list[float] = []
    held = 0
    for value, count in zip(values[rest].tolist(), counts[rest].tolist(), strict=True):
        held += count
        if held > share:
            highs.append(value)
            held = 0
    if held:
        highs.append(float(values[rest][-1]))
    result = [Bound(v, v, True, True) for v in sorted(present)]
    if not highs:
        if present:  # nothing above the fixed values in gold: one bucket for what runs have
            result.append(Bound(max(present), math.inf, False, False))
        return tuple(result) or (Bound(-math.inf, math.inf, False, False),)
    low, low_closed = (max(present), False) if present else (float(values[rest][0]), True)
    for high in highs:
        result.append(Bound(low, high, low_closed, True))
        low, low_closed = high, False
    return tuple(result)
