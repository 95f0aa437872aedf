"""The seven word attributes of RethinkCWS (docs/measures/buckets.md), for every gold word and every
run word.

wLen, sLen and oDen need only the gold standard and the training word list; wFre, cFre, wCon and
cCon need the training corpus as running text (:class:`TrainingText`). Where a track has only a
word list they are *unavailable*: they are left out and say so, never guessed.

The training statistics are computed once per training corpus (:class:`TrainingText`): word and
character counts, B/M/E/S tag counts, and ψ of every training word type, whose string occurrences
are counted in one Aho-Corasick pass over the training text (a string that is no training word has
ψ = 0, so no other string needs counting). A track's gold attributes are computed once
(:func:`prepare_track`) and every run of the track reuses them: a correct run word takes its gold
word's values, and the other run words the values of their string (word attributes) and of their
line (sentence attributes, taken from gold). Only strings that no gold word has are looked up per
run, once for all the runs of a batch (:meth:`TrackAttributes.runs_values`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..core.dictionary import Dictionary
from ..core.gold import GoldIndex
from ..core.score import ScoredRun
from ..core.segmentation import LF, Mask, Positions, Segmentation
from ..core.text import SEPARATORS, UTF8, decode, sha256_bytes, split_lines, words_of
from .interpreteval import Characters, TrainingTables, character_pairs, oov_character_density
from .schemes import ATTRIBUTES

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: The attributes computed from the training corpus as running text.
NEEDS_TRAINING_TEXT = ("wFre", "cFre", "wCon", "cCon")
_WITHOUT_TRAINING_TEXT = tuple(name for name in ATTRIBUTES if name not in NEEDS_TRAINING_TEXT)
UNAVAILABLE_REASON = "needs the training corpus as running text; only a word list was given"

_B, _M, _E, _S = range(4)


@dataclass(frozen=True, eq=False)
class TrainingText:
    """The statistics of a segmented training corpus that the word attributes need.

    ``text`` is the training corpus with its whitespace removed, lines joined by LF (so no string
    is ever found across two lines). ``char_tags[c]`` counts the occurrences of character ``c``
    with each tag B, M, E, S; their sum is the character's count in the training text.
    ``consistency[w]`` is ψ of every training word type w: its count as a word over the count of
    its string in the text. A string that is no training word has ψ = 0 whether it occurs or not,
    so these are all the ψ values there are, counted once per training corpus in one pass.
    ``word_starts`` marks, over ``text``, the characters that begin a word.

    >>> training = TrainingText.from_segmented("结婚 的 和尚\\n和尚 未 结婚\\n")
    >>> training.words, training.consistency["和尚"]
    (6, 1.0)
    """

    word_counts: Mapping[str, int]
    char_tags: Mapping[str, tuple[int, int, int, int]]
    text: str
    words: int
    checksum: str
    consistency: Mapping[str, float]
    word_starts: Mask = field(default_factory=lambda: np.zeros(0, np.bool_), repr=False)

    @classmethod
    def from_segmented(cls, text: str | bytes, encoding: str = UTF8) -> TrainingText:
        """The statistics of a segmented training corpus (words separated by whitespace), given
        as a str or as bytes in ``encoding``; its BOM is dropped (one)."""
        decoded = decode(text, encoding) if isinstance(text, bytes) else text.removeprefix("\ufeff")
        lines = [words_of(line) for line in split_lines(decoded)]
        word_counts = Counter(word for line in lines for word in line)
        tags: dict[str, list[int]] = {}
        for word, count in word_counts.items():
            if len(word) == 1:
                tags.setdefault(word, [0, 0, 0, 0])[_S] += count
                continue
            tags.setdefault(word[0], [0, 0, 0, 0])[_B] += count
            for char in word[1:-1]:
                tags.setdefault(char, [0, 0, 0, 0])[_M] += count
            tags.setdefault(word[-1], [0, 0, 0, 0])[_E] += count
        canonical = "".join(" ".join(line) + "\n" for line in lines)
        char_tags = {char: (b, m, e, s) for char, (b, m, e, s) in tags.items()}
        joined = "\n".join("".join(line) for line in lines)
        types = list(word_counts)
        occurrences = _string_counts(types, joined, char_tags)
        return cls(
            word_counts=dict(word_counts),
            char_tags=char_tags,
            text=joined,
            words=sum(word_counts.values()),
            checksum=sha256_bytes(canonical.encode(UTF8)),
            consistency={
                word: word_counts[word] / int(count)
                for word, count in zip(types, occurrences, strict=True)
            },
            word_starts=_word_starts(canonical)[: len(joined)],
        )

    def string_counts(self, strings: Sequence[str]) -> IntArray:
        """Occurrences of each string in the training text, overlapping ones included."""
        return _string_counts(strings, self.text, self.char_tags)

    def word_values(self, strings: Sequence[str]) -> dict[str, FloatArray]:
        """wFre, cFre, wCon and cCon of each string, as word attributes
        (docs/measures/buckets.md#attributes).

        wCon (ψ) is 0 for a string that is no training word (in particular one that never occurs
        in the training text); a character that never occurs adds 0 to cFre and to cCon.
        """
        word_counts, char_tags, consistency = self.word_counts, self.char_tags, self.consistency
        none = (0, 0, 0, 0)
        w_fre = np.fromiter((word_counts.get(s, 0) for s in strings), np.float64, len(strings))
        c_fre = np.empty(len(strings))
        c_con = np.empty(len(strings))
        for position, string in enumerate(strings):
            total_count = 0
            same_tag = 0.0
            for char, tag in zip(string, _tags(len(string)), strict=True):
                counts = char_tags.get(char, none)
                count = sum(counts)
                total_count += count
                if count:
                    same_tag += counts[tag] / count
            length = max(len(string), 1)
            c_fre[position] = total_count / length
            c_con[position] = same_tag / length
        w_con = np.fromiter((consistency.get(s, 0.0) for s in strings), np.float64, len(strings))
        return {"wFre": w_fre, "cFre": c_fre, "wCon": w_con, "cCon": c_con}


def _word_starts(canonical: str) -> Mask:
    """Over a text of words separated by one space and lines ended by LF, with the spaces
    removed: True where a word begins."""
    points = np.frombuffer(canonical.encode("utf-32-le"), np.uint32)
    space = points == 0x20
    cut = space | (points == LF)
    starts = ~cut
    starts[1:] &= cut[:-1]
    kept: Mask = starts[~space]
    return kept


def _string_counts(
    strings: Sequence[str], text: str, char_tags: Mapping[str, tuple[int, int, int, int]]
) -> IntArray:
    """Occurrences of each string in ``text``, overlapping ones included.

    One pass of an Aho-Corasick automaton over the text counts every string at once; a single
    character's count is known from ``char_tags`` already and is not searched for.
    """
    import ahocorasick  # type: ignore[import-not-found]  # pyahocorasick ships no stubs

    counts = np.zeros(len(strings), np.int64)
    automaton = ahocorasick.Automaton()
    searched = 0
    for position, string in enumerate(strings):
        if len(string) == 1:
            counts[position] = sum(char_tags.get(string, (0, 0, 0, 0)))
        elif string and not any(char in SEPARATORS or char == "\n" for char in string):
            automaton.add_word(string, position)
            searched += 1
    if searched:
        automaton.make_automaton()
        found = np.fromiter((position for _, position in automaton.iter(text)), np.int64)
        counts += np.bincount(found, minlength=len(strings))
    return counts


def _tags(length: int) -> list[int]:
    """The B/M/E/S tag of each character of a word of ``length`` characters."""
    if length == 1:
        return [_S]
    return [_B, *([_M] * (length - 2)), _E]


def segmentation_words(segmentation: Segmentation, which: Mask | None = None) -> list[str]:
    """The words of a segmentation as strings, in corpus order (line structure dropped); with
    ``which``, a mask over the words, only those.

    >>> from scoring import build_gold_index, Dictionary
    >>> gold = build_gold_index("结婚 的 和尚\\n", Dictionary.from_words([]))
    >>> segmentation_words(gold.segmentation)
    ['结婚', '的', '和尚']
    """
    compact, word_start = segmentation.compact, segmentation.word_start
    if which is not None:
        starts = np.flatnonzero(word_start)
        boundaries = np.flatnonzero(word_start | (compact == LF))
        ends = boundaries[np.searchsorted(boundaries, starts, side="right")]
        raw = compact.tobytes()
        return [
            raw[a:b].decode(UTF8)
            for a, b in zip(starts[which].tolist(), ends[which].tolist(), strict=True)
        ]
    keep = compact != LF
    kept, starts_kept = compact[keep], word_start[keep]
    # A space before every word, then one split: words never contain a space.
    spaced = np.full(kept.size + int(np.count_nonzero(starts_kept)), 0x20, np.uint8)
    spaced[np.arange(kept.size) + np.cumsum(starts_kept)] = kept
    return spaced.tobytes().decode(UTF8).split(" ")[1:]


def word_lines(segmentation: Segmentation, line_ends: Positions | None = None) -> IntArray:
    """The 0-based line of every word of a segmentation."""
    ends = segmentation.line_ends() if line_ends is None else line_ends
    lines: IntArray = np.searchsorted(ends, np.flatnonzero(segmentation.word_start))
    return lines


def line_lengths(segmentation: Segmentation) -> IntArray:
    """Characters in each line (UTF-8 lead bytes, the LF not counted)."""
    compact = segmentation.compact
    lead = (compact & 0xC0) != 0x80
    lead &= compact != LF
    before = np.concatenate(([0], np.cumsum(lead, dtype=np.int64)))
    ends = segmentation.line_ends()
    lengths: IntArray = np.diff(before[ends], prepend=0)
    return lengths


@dataclass(frozen=True, eq=False)
class CharacterValues:
    """Attribute values of the characters of one segmentation, for the attributes a scheme
    computes per character (the interpreteval scheme's cFre and cCon), with each character's
    0-based line.

    For a run, ``pairs`` holds the gold characters (first array) and the run characters (second)
    that count as correct when their values fall in the same bucket.
    """

    values: Mapping[str, FloatArray]
    line: IntArray
    pairs: tuple[IntArray, IntArray] | None = None


@dataclass(frozen=True, eq=False)
class WordValues:
    """Attribute values of the words of one segmentation (gold or a run), in corpus order.

    ``values`` holds the available attributes only; ``line`` is each word's 0-based line;
    ``characters`` the attributes a scheme computes per character, if any.
    """

    values: Mapping[str, FloatArray]
    line: IntArray
    characters: CharacterValues | None = None

    @property
    def size(self) -> int:
        return int(self.line.size)


@dataclass(frozen=True, eq=False)
class TrackAttributes:
    """What a track's gold standard and training data give every word, computed once per track."""

    gold: GoldIndex
    training: TrainingText | None
    gold_values: WordValues
    sentence_length: IntArray
    oov_density: FloatArray
    _type_index: Mapping[str, int] = field(repr=False)
    _type_values: Mapping[str, FloatArray] = field(repr=False)
    _gold_ids: IntArray = field(repr=False)
    #: The attribute conventions: DEFAULT_SCHEME, or INTERPRETEVAL_SCHEME
    #: (docs/measures/buckets.md#the-interpreteval-scheme).
    scheme: str = "default"
    _tables: TrainingTables | None = field(default=None, repr=False)
    _gold_characters: Characters | None = field(default=None, repr=False)

    @property
    def available(self) -> tuple[str, ...]:
        return ATTRIBUTES if self.training is not None else _WITHOUT_TRAINING_TEXT

    @property
    def unavailable(self) -> dict[str, str]:
        """Each attribute that cannot be computed, with the reason."""
        return {name: UNAVAILABLE_REASON for name in ATTRIBUTES if name not in self.available}

    def run_values(self, run: ScoredRun) -> WordValues:
        """Attribute values of every word of a run scored against this track's gold."""
        return self.runs_values([run])[0]

    def runs_values(self, runs: Sequence[ScoredRun]) -> list[WordValues]:
        """Attribute values of the words of several runs.

        A correct run word takes its gold word's values; the strings of the other run words that
        no gold word has are looked up once for all the runs together.
        """
        for run in runs:
            if run.gold.checksum != self.gold.checksum:
                raise ValueError("the run was scored against another gold standard")
        index = dict(self._type_index)
        fresh: list[str] = []
        wrong_words = []
        looked_up = [_looked_up(run) for run in runs]
        for run, mask in zip(runs, looked_up, strict=True):
            wrong = segmentation_words(run.run, mask)
            for word in wrong:
                if word not in index:
                    index[word] = len(index)
                    fresh.append(word)
            wrong_words.append(wrong)
        extra = _word_values(fresh, self.training, self._tables)
        table = {
            name: np.concatenate((self._type_values[name], extra[name]))
            for name in self._type_values
        }
        result = []
        for run, mask, wrong in zip(runs, looked_up, wrong_words, strict=True):
            ids = np.empty(mask.size, np.int64)
            # The k-th correct run word is the k-th correct gold word: both are in corpus order.
            ids[~mask] = self._gold_ids[run.gold_correct]
            ids[mask] = np.fromiter((index[w] for w in wrong), np.int64, len(wrong))
            line = word_lines(run.run)
            values = _all_values(
                self.available, table, ids, line, self.sentence_length, self.oov_density
            )
            result.append(WordValues(values, line, self._run_characters(run)))
        return result

    def _run_characters(self, run: ScoredRun) -> CharacterValues | None:
        if self._tables is None or self._gold_characters is None:
            return None
        characters = Characters.of(run.run)
        return CharacterValues(
            self._tables.character_values(characters),
            characters.line,
            character_pairs(run, self._gold_characters, characters),
        )


def _looked_up(run: ScoredRun) -> Mask:
    """The run words whose values are looked up by their string: the incorrect ones (or all,
    should the correct run words and gold words ever not pair up)."""
    if np.count_nonzero(run.run_correct) == np.count_nonzero(run.gold_correct):
        wrong: Mask = ~run.run_correct
        return wrong
    return np.ones(run.run_correct.size, np.bool_)


def _all_values(
    available: Sequence[str],
    table: Mapping[str, FloatArray],
    ids: IntArray,
    line: IntArray,
    sentence_length: IntArray,
    oov_density: FloatArray,
) -> dict[str, FloatArray]:
    """The available attributes of words given by their string's id and their line (those that
    belong to characters are left out)."""
    values = {name: table[name][ids] for name in table}
    values["sLen"] = sentence_length[line].astype(np.float64)
    values["oDen"] = oov_density[line]
    return {name: values[name] for name in available if name in values}


def _word_values(
    strings: Sequence[str],
    training: TrainingText | None,
    tables: TrainingTables | None = None,
) -> dict[str, FloatArray]:
    values = {"wLen": np.fromiter((len(s) for s in strings), np.float64, len(strings))}
    if tables is not None:
        values.update(tables.word_values(strings))
    elif training is not None:
        values.update(training.word_values(strings))
    return values


#: The attribute conventions prepare_track knows (docs/measures/buckets.md#bucket-schemes).
DEFAULT_SCHEME = "default"
INTERPRETEVAL_SCHEME = "interpreteval"
SCHEMES = (DEFAULT_SCHEME, INTERPRETEVAL_SCHEME)


def prepare_track(
    gold: GoldIndex,
    training: TrainingText | None,
    *,
    scheme: str = DEFAULT_SCHEME,
    dictionary: Dictionary | None = None,
) -> TrackAttributes:
    """The attribute values of every gold word of a track (computed once per track).

    ``scheme`` chooses the conventions: the default ones, or ``"interpreteval"``'s, which compute
    oDen from the characters of the training word list (``dictionary``, then required), and cFre
    and cCon per character.

    >>> from scoring import Dictionary, build_gold_index
    >>> gold = build_gold_index("结婚 的 和 尚未 结婚 的\\n", Dictionary.from_words(["结婚"]))
    >>> track = prepare_track(gold, TrainingText.from_segmented("和尚 未 结婚\\n"))
    >>> track.gold_values.values["wCon"].tolist()
    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    """
    if scheme not in SCHEMES:
        raise ValueError(f"unknown bucket scheme {scheme!r}: use one of {', '.join(SCHEMES)}")
    segmentation = gold.segmentation
    words = segmentation_words(segmentation)
    line = word_lines(segmentation, gold.line_ends())
    lengths = line_lengths(segmentation)
    lines = lengths.size
    tables = gold_characters = None
    characters = None
    if scheme == INTERPRETEVAL_SCHEME:
        if dictionary is None:
            raise ValueError("the interpreteval scheme needs the training word list (for oDen)")
        density = oov_character_density(segmentation, dictionary)
        if training is not None:
            tables = TrainingTables.of(training)
            gold_characters = Characters.of(segmentation)
            characters = CharacterValues(
                tables.character_values(gold_characters), gold_characters.line
            )
    else:
        per_line = np.bincount(line, minlength=lines)
        oov_per_line = np.bincount(line[gold.oov], minlength=lines)
        density = np.divide(
            oov_per_line, per_line, out=np.zeros(lines), where=per_line > 0, dtype=np.float64
        )
    type_index = {word: position for position, word in enumerate(dict.fromkeys(words))}
    type_values = _word_values(list(type_index), training, tables)
    ids = np.fromiter((type_index[word] for word in words), np.int64, len(words))
    available = ATTRIBUTES if training is not None else _WITHOUT_TRAINING_TEXT
    values = _all_values(available, type_values, ids, line, lengths, density)
    return TrackAttributes(
        gold=gold,
        training=training,
        gold_values=WordValues(values, line, characters),
        sentence_length=lengths,
        oov_density=density,
        _type_index=type_index,
        _type_values=type_values,
        _gold_ids=ids,
        scheme=scheme,
        _tables=tables,
        _gold_characters=gold_characters,
    )


def mean_values(values: WordValues) -> dict[str, float]:
    """α^μ: the mean of each attribute over the words (docs/measures/buckets.md), 0 for no words;
    over the characters for an attribute of characters."""
    arrays = dict(values.values)
    if values.characters is not None:
        arrays.update(values.characters.values)
    return {name: float(array.mean()) if array.size else 0.0 for name, array in arrays.items()}
