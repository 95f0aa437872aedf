"""Psychometric balanced precision, recall and F of a run (docs/measures/balanced-f.md, Qian et al.
2016).

Given the difficulty d_i of every gold word (from a committee) and whether the run found it (m_i):

    r_reward = Σ d_i m_i / Σ d_i        r_punish = Σ (1 − d_i) m_i / Σ (1 − d_i)
    r_b = harmonic mean of r_reward and r_punish

and likewise on the precision side over run words s'_j, where d'_j is the difficulty of the gold
word that covers the last character of s'_j. f_b is the harmonic mean of p_b and r_b. Where a
denominator is 0 (no word has any difficulty, or every word has difficulty 1), that component
equals the other component of its pair.

    >>> side = balanced_side([0.5, 0.0, 1.0], [True, True, False])
    >>> side.reward, side.punish
    (0.3333333333333333, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.align import align_chars
from ..core.errors import ScoringError
from ..core.result import Signature, harmonic_mean
from ..core.score import ScoredRun
from ..core.segmentation import LF
from ..core.text import UTF8

INTERVALS: Final = 10
# Difficulties are fractions misses / K: rounding before binning keeps 0.3 from reading as
# 0.30000000000000004 and falling into the next interval.
_DECIMALS: Final = 9
_EDGES: Final = np.round(np.arange(1, INTERVALS) / INTERVALS, _DECIMALS)

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class BalancedSide:
    """One side (recall over gold words, or precision over run words) with its raw sums."""

    words: int
    correct: int
    difficulty_sum: float  # Σ d
    correct_difficulty_sum: float  # Σ d m
    ease_sum: float  # Σ (1 − d)
    correct_ease_sum: float  # Σ (1 − d) m

    @property
    def reward(self) -> float:
        """Σ d m / Σ d; the punish component where Σ d is 0."""
        if self.difficulty_sum > 0:
            return self.correct_difficulty_sum / self.difficulty_sum
        return self.correct_ease_sum / self.ease_sum if self.ease_sum > 0 else 0.0

    @property
    def punish(self) -> float:
        """Σ (1 − d) m / Σ (1 − d); the reward component where Σ (1 − d) is 0."""
        if self.ease_sum > 0:
            return self.correct_ease_sum / self.ease_sum
        return self.reward

    @property
    def value(self) -> float:
        return harmonic_mean(self.reward, self.punish)

    def to_dict(self) -> dict[str, Any]:
        return {
            "words": self.words,
            "correct": self.correct,
            "difficulty_sum": self.difficulty_sum,
            "correct_difficulty_sum": self.correct_difficulty_sum,
            "ease_sum": self.ease_sum,
            "correct_ease_sum": self.correct_ease_sum,
            "reward": self.reward,
            "punish": self.punish,
            "value": self.value,
        }


@dataclass(frozen=True)
class DifficultyInterval:
    """Gold words whose difficulty lies in (low, high] ([0, high] for the first interval)."""

    low: float
    high: float
    words: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.words if self.words else None

    @property
    def label(self) -> str:
        opening = "[" if self.low == 0 else "("
        return f"{opening}{self.low:.1f}, {self.high:.1f}]"

    def to_dict(self) -> dict[str, Any]:
        return {
            "interval": self.label,
            "low": self.low,
            "high": self.high,
            "words": self.words,
            "correct": self.correct,
            "accuracy": self.accuracy,
        }


@dataclass(frozen=True)
class BalancedSignature(Signature):
    """What produced a balanced score: the signature of the run's word score, and the committee
    whose difficulties weighted it (its one-line signature)."""

    committee: str | None


@dataclass(frozen=True)
class BalancedScore:
    """Balanced recall, precision and F of one run, the sums behind them, and the profile.

    ``signature`` is there when the score was computed from a scored run (``balanced_score``).
    """

    recall_side: BalancedSide
    precision_side: BalancedSide
    profile: tuple[DifficultyInterval, ...]
    committee: str | None = None  # the committee's signature
    signature: BalancedSignature | None = None

    @property
    def recall_b(self) -> float:
        return self.recall_side.value

    @property
    def precision_b(self) -> float:
        return self.precision_side.value

    @property
    def f_b(self) -> float:
        return harmonic_mean(self.precision_b, self.recall_b)

    def to_dict(self) -> dict[str, Any]:
        return {
            "precision_b": self.precision_b,
            "recall_b": self.recall_b,
            "f_b": self.f_b,
            "r_reward": self.recall_side.reward,
            "r_punish": self.recall_side.punish,
            "p_reward": self.precision_side.reward,
            "p_punish": self.precision_side.punish,
            "balanced_recall_sums": self.recall_side.to_dict(),
            "balanced_precision_sums": self.precision_side.to_dict(),
            "difficulty_profile": [interval.to_dict() for interval in self.profile],
            "committee": self.committee,
        }


def balanced_side(
    difficulty: Sequence[float] | FloatArray, correct: Sequence[bool] | BoolArray
) -> BalancedSide:
    """The sums of one side from the difficulty and correctness of each word."""
    d = np.asarray(difficulty, np.float64)
    m = np.asarray(correct, np.bool_)
    if d.shape != m.shape:
        raise ScoringError(f"{d.size} difficulties for {m.size} words")
    if d.size and (d.min() < 0 or d.max() > 1):
        raise ScoringError("difficulties must lie in [0, 1]")
    ease = 1.0 - d
    return BalancedSide(
        words=int(d.size),
        correct=int(np.count_nonzero(m)),
        difficulty_sum=float(d.sum()),
        correct_difficulty_sum=float(d[m].sum()),
        ease_sum=float(ease.sum()),
        correct_ease_sum=float(ease[m].sum()),
    )


def difficulty_profile(
    difficulty: Sequence[float] | FloatArray, correct: Sequence[bool] | BoolArray
) -> tuple[DifficultyInterval, ...]:
    """The share of gold words found in each of [0, 0.1], (0.1, 0.2], ..., (0.9, 1]."""
    d = np.round(np.asarray(difficulty, np.float64), _DECIMALS)
    m = np.asarray(correct, np.bool_)
    bins = np.searchsorted(_EDGES, d, side="left")
    words = np.bincount(bins, minlength=INTERVALS)
    found = np.bincount(bins[m], minlength=INTERVALS)
    return tuple(
        DifficultyInterval(
            low=i / INTERVALS, high=(i + 1) / INTERVALS, words=int(words[i]), correct=int(found[i])
        )
        for i in range(INTERVALS)
    )


def balanced_from_arrays(
    gold_difficulty: Sequence[float] | FloatArray,
    gold_correct: Sequence[bool] | BoolArray,
    run_difficulty: Sequence[float] | FloatArray,
    run_correct: Sequence[bool] | BoolArray,
    *,
    committee: str | None = None,
) -> BalancedScore:
    """Balanced scores from per-word arrays: d_i and m_i of the gold words, d'_j and m'_j of the
    run words."""
    return BalancedScore(
        recall_side=balanced_side(gold_difficulty, gold_correct),
        precision_side=balanced_side(run_difficulty, run_correct),
        profile=difficulty_profile(gold_difficulty, gold_correct),
        committee=committee,
    )


def balanced_score(
    scored: ScoredRun,
    difficulty: Sequence[float] | FloatArray,
    *,
    lines: Sequence[int] | npt.NDArray[np.integer[Any]] | None = None,
    committee: str | None = None,
) -> BalancedScore:
    """Balanced scores of a scored run, given the difficulty of every gold word in corpus order.

    ``lines`` (0-based line indices) restricts both sides to those sentences, for split-half and
    bootstrap estimates.

    >>> from scoring import Dictionary, build_gold_index, score_run_details
    >>> gold = build_gold_index("结婚 的 和尚\\n", Dictionary.from_words([]))
    >>> run = score_run_details("结婚 的和尚\\n", gold)
    >>> result = balanced_score(run, [0.5, 0.5, 1.0])
    >>> round(result.recall_b, 3), round(result.precision_b, 3), round(result.f_b, 3)
    (0.333, 0.5, 0.4)
    """
    d = np.asarray(difficulty, np.float64)
    if d.shape != (scored.gold.true_words,):
        raise ScoringError(
            f"the difficulty vector has {d.size} values but the gold standard has "
            f"{scored.gold.true_words} words: was it computed for another gold version?"
        )
    run_d = run_word_difficulty(scored, d)
    gold_correct, run_correct = scored.gold_correct, scored.run_correct
    if lines is not None:
        chosen = np.zeros(scored.gold.line_count, np.bool_)
        chosen[np.asarray(lines, np.int64)] = True
        gold_keep = chosen[_gold_word_lines(scored)]
        run_keep = chosen[_run_word_lines(scored)]
        d, gold_correct = d[gold_keep], gold_correct[gold_keep]
        run_d, run_correct = run_d[run_keep], run_correct[run_keep]
    word = scored.score.signature
    return replace(
        balanced_from_arrays(d, gold_correct, run_d, run_correct, committee=committee),
        signature=BalancedSignature(
            word.scorer_version,
            word.gold_checksum,
            word.dictionary_checksum,
            committee,
            options=word.options,
        ),
    )


def run_word_difficulty(scored: ScoredRun, difficulty: FloatArray) -> FloatArray:
    """d'_j: for every run word, the difficulty of the gold word covering its last character.

    Where a line's characters equal the gold's (every line of a valid run), byte offsets within the
    line are shared and the covering gold word is found by binary search. On a line accepted as a
    flaw of the corpus (its characters differ from the gold's), the run's characters are aligned
    to the gold's as in scoring (a longest common subsequence); a last character with no gold
    counterpart takes the nearest aligned character before it (after it, if there is none).
    """
    run = scored.run
    gold = scored.gold
    run_starts = np.flatnonzero(run.word_start)
    cuts = np.flatnonzero(run.word_start | (run.compact == LF))
    last_byte = cuts[np.searchsorted(cuts, run_starts, side="right")] - 1
    run_line_ends = run.line_ends()
    gold_line_ends = gold.line_ends()
    run_lines = np.searchsorted(run_line_ends, run_starts)
    run_line_starts = np.concatenate(([0], run_line_ends[:-1] + 1))
    gold_line_starts = np.concatenate(([0], gold_line_ends[:-1] + 1))
    in_gold = gold_line_starts[run_lines] + (last_byte - run_line_starts[run_lines])
    for line_number in scored.score.aligned_lines:
        line = line_number - 1
        words = np.flatnonzero(run_lines == line)
        in_gold[words] = (
            _aligned_positions(
                run.compact[run_line_starts[line] : run_line_ends[line]].tobytes(),
                gold.compact[gold_line_starts[line] : gold_line_ends[line]].tobytes(),
                last_byte[words] - run_line_starts[line],
            )
            + gold_line_starts[line]
        )
    gold_word = np.searchsorted(gold.word_starts, in_gold, side="right") - 1
    result: FloatArray = difficulty[gold_word]
    return result


def _aligned_positions(
    run_line: bytes, gold_line: bytes, run_offsets: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Byte offsets in the gold line of the characters at ``run_offsets`` of the run line."""
    run_chars, gold_chars = run_line.decode(UTF8), gold_line.decode(UTF8)
    if not gold_chars:
        raise ScoringError("a run word lies on a line whose gold is empty")
    run_char_at = _char_index_of_byte(run_chars)
    gold_byte_of = _byte_offsets(gold_chars)
    mapping = align_chars(run_chars, gold_chars)
    # Unaligned characters take the nearest aligned one before them, else the first after.
    filled = list(mapping)
    previous = -1
    for i, target in enumerate(filled):
        if target >= 0:
            previous = target
        else:
            filled[i] = previous
    following = 0
    for i in range(len(filled) - 1, -1, -1):
        if mapping[i] >= 0:
            following = mapping[i]
        elif filled[i] < 0:
            filled[i] = following
    return np.array(
        [gold_byte_of[filled[run_char_at[int(offset)]]] for offset in run_offsets], np.int64
    )


def _char_index_of_byte(text: str) -> list[int]:
    """For every UTF-8 byte of ``text``, the index of the character it belongs to."""
    return [index for index, char in enumerate(text) for _ in range(len(char.encode(UTF8)))]


def _byte_offsets(text: str) -> list[int]:
    offsets, position = [], 0
    for char in text:
        offsets.append(position)
        position += len(char.encode(UTF8))
    return offsets


def _gold_word_lines(scored: ScoredRun) -> npt.NDArray[np.int64]:
    return np.searchsorted(scored.gold.line_ends(), scored.gold.word_starts)


def _run_word_lines(scored: ScoredRun) -> npt.NDArray[np.int64]:
    return np.searchsorted(scored.run.line_ends(), np.flatnonzero(scored.run.word_start))
