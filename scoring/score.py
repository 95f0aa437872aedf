"""Word scores of a run against a gold index (SPEC §2), vectorised over the whole corpus.

A gold word ``[s, e)`` is correct when the run has a boundary at ``s`` and at ``e`` and none in
between. Counting run boundaries inside every gold token is one ``np.add.reduceat`` pass, so the
cost is linear in the text and no Python code runs per word.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .align import score_aligned_line
from .dictionary import Dictionary
from .errors import RunValidationError
from .gold import GoldIndex, build_gold_index
from .io import UTF8
from .result import Score, Signature
from .segmentation import LF, Mask, Segmentation, parse
from .validate import differing_lines, mismatch_error
from .version import __version__

ANY_LINE: Literal["any"] = "any"
AlignedLines = Collection[int] | Literal["any"]
Counts = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class ScoredRun:
    """A score with the per-word facts behind it (for bootstrap, buckets and balanced F).

    ``gold_correct[i]`` tells whether gold word ``i`` was found and ``run_correct[j]`` whether
    run word ``j`` is correct, both in corpus order (line by line, word by word).
    """

    score: Score
    gold_correct: Mask
    run_correct: Mask
    run: Segmentation
    gold: GoldIndex

    def line_counts(self) -> tuple[Counts, Counts, Counts]:
        """Per line: gold words, run words and correct words (for resampling sentences)."""
        lines = self.gold.line_count
        gold_line = np.searchsorted(self.gold.line_ends(), self.gold.word_starts)
        run_starts = np.flatnonzero(self.run.word_start)
        run_line = np.searchsorted(self.run.line_ends(), run_starts)
        return (
            np.bincount(gold_line, minlength=lines),
            np.bincount(run_line, minlength=lines),
            np.bincount(gold_line[self.gold_correct], minlength=lines),
        )


def score_run(
    run: str | bytes | Segmentation,
    gold: GoldIndex,
    *,
    aligned_lines: AlignedLines = (),
    encoding: str = UTF8,
) -> Score:
    """Score a run against a prepared gold standard.

    ``aligned_lines`` are the 1-based lines on which the run's characters may differ from the
    gold's (lines an organiser accepted as flaws of the corpus), or ``"any"``; they are scored by
    character alignment. A difference on any other line raises RunValidationError.
    """
    return score_run_details(run, gold, aligned_lines=aligned_lines, encoding=encoding).score


def score_texts(
    gold_text: str,
    run_text: str,
    dictionary: Dictionary,
    *,
    aligned_lines: AlignedLines = ANY_LINE,
) -> Score:
    """Score a run given as text against a gold standard given as text."""
    return score_run(run_text, build_gold_index(gold_text, dictionary), aligned_lines=aligned_lines)


def score_run_details(
    run: str | bytes | Segmentation,
    gold: GoldIndex,
    *,
    aligned_lines: AlignedLines = (),
    encoding: str = UTF8,
) -> ScoredRun:
    segmentation = run if isinstance(run, Segmentation) else parse(run, encoding)
    mismatched = differing_lines(segmentation, gold.segmentation)
    if mismatched.size:
        allowed = None if aligned_lines == ANY_LINE else {int(n) - 1 for n in aligned_lines}
        refused = [int(i) for i in mismatched if allowed is not None and int(i) not in allowed]
        if refused:
            raise mismatch_error(segmentation, gold.segmentation, refused[0])
        comparable = _with_gold_lines(segmentation, gold, mismatched)
    else:
        comparable = segmentation
    counts = _count(comparable, gold)
    if mismatched.size:
        _rescore_aligned_lines(counts, segmentation, comparable, gold, mismatched)
    gold_correct = counts.gold_correct
    score = Score(
        true_words=gold.true_words,
        test_words=counts.test_words,
        correct=int(np.count_nonzero(gold_correct)),
        oov_words=gold.oov_words,
        correct_oov=int(np.count_nonzero(gold_correct & gold.oov)),
        insertions=counts.insertions,
        deletions=counts.deletions,
        substitutions=counts.substitutions,
        signature=signature_for(gold),
        aligned_lines=tuple(int(i) + 1 for i in mismatched),
    )
    return ScoredRun(
        score=score,
        gold_correct=gold_correct,
        run_correct=counts.run_correct,
        run=segmentation,
        gold=gold,
    )


def signature_for(gold: GoldIndex) -> Signature:
    return Signature(
        scorer_version=__version__,
        gold_checksum=gold.checksum,
        dictionary_checksum=gold.dictionary_checksum,
        options=(("match", "span"), ("mismatch", "lcs")),
    )


@dataclass
class _Counts:
    gold_correct: Mask
    run_correct: Mask
    test_words: int
    insertions: int
    deletions: int
    substitutions: int


def _count(run: Segmentation, gold: GoldIndex) -> _Counts:
    """Counts for a run whose compact bytes equal the gold's."""
    boundary = run.compact == LF
    boundary |= run.word_start
    tokens = gold.tokens
    # 32-bit counters halve the memory of a corpus of ten million words.
    counter = np.int32 if tokens.size < 2**31 else np.int64
    # Run boundaries inside each gold token's span [start, next token's start).
    inside = np.add.reduceat(boundary.view(np.uint8), tokens, dtype=counter)
    at_start = boundary[tokens]
    # A token ends where the next begins; the last token (an LF) ends the text.
    at_end = np.empty_like(at_start)
    at_end[:-1] = at_start[1:]
    at_end[-1] = True
    del boundary
    correct_token = inside == 1
    correct_token &= at_start
    correct_token &= at_end

    is_word = gold.is_word
    run_words_in_token = np.where(is_word, inside, 0)
    del inside
    run_before: npt.NDArray[np.signedinteger[Any]] = np.cumsum(run_words_in_token, dtype=counter)
    run_before -= run_words_in_token
    gold_before: npt.NDArray[np.signedinteger[Any]] = np.cumsum(is_word, dtype=counter)
    gold_before -= is_word
    # Between two consecutive correct tokens lie a unmatched gold words and b unmatched run words:
    # diff -y shows min(a, b) of them as substitutions and the rest as deletions or insertions.
    # Every line ends with an LF token that is always correct, so no stretch crosses a line.
    anchors = np.flatnonzero(correct_token)
    width = is_word[anchors].astype(np.int64)
    gold_at = gold_before[anchors].astype(np.int64)
    run_at = run_before[anchors].astype(np.int64)
    unmatched_gold = gold_at - np.concatenate(([0], gold_at[:-1] + width[:-1]))
    unmatched_run = run_at - np.concatenate(([0], run_at[:-1] + width[:-1]))
    substitutions = int(np.minimum(unmatched_gold, unmatched_run).sum())
    run_correct = np.zeros(run.word_count, np.bool_)
    run_correct[run_at[width == 1]] = True
    return _Counts(
        gold_correct=correct_token[is_word],
        run_correct=run_correct,
        test_words=run.word_count,
        insertions=int(unmatched_run.sum()) - substitutions,
        deletions=int(unmatched_gold.sum()) - substitutions,
        substitutions=substitutions,
    )


def _with_gold_lines(run: Segmentation, gold: GoldIndex, lines: np.ndarray) -> Segmentation:
    """The run with the given lines replaced by the gold's, so that its bytes equal the gold's."""
    run_ends, gold_ends = run.line_ends(), gold.line_ends()
    compacts, starts = [], []
    previous = 0
    for line in lines.tolist():
        run_first = int(run_ends[line - 1]) + 1 if line else 0
        gold_first = int(gold_ends[line - 1]) + 1 if line else 0
        gold_stop = int(gold_ends[line]) + 1
        compacts += [run.compact[previous:run_first], gold.compact[gold_first:gold_stop]]
        starts += [
            run.word_start[previous:run_first],
            gold.segmentation.word_start[gold_first:gold_stop],
        ]
        previous = int(run_ends[line]) + 1
    compacts.append(run.compact[previous:])
    starts.append(run.word_start[previous:])
    return Segmentation(np.concatenate(compacts), np.concatenate(starts))


def _rescore_aligned_lines(
    counts: _Counts, run: Segmentation, patched: Segmentation, gold: GoldIndex, lines: np.ndarray
) -> None:
    """Replace what the gold-patched lines counted by their character-aligned scores."""
    run_ends, gold_ends = run.line_ends(), gold.line_ends()
    word_starts = gold.word_starts
    patched_starts = np.flatnonzero(patched.word_start)
    patched_line_starts = np.concatenate(([0], patched.line_ends()[:-1] + 1))
    run_correct_parts = []
    copied = 0  # patched run words already copied over
    for line in lines.tolist():
        gold_words = gold.segmentation.line_words(line, gold_ends)
        run_words = run.line_words(line, run_ends)
        if not gold_words:
            raise RunValidationError(
                line=line + 1,
                column=1,
                expected="",
                found=run_words[0][:1],
                reason="the gold line is empty, so the run's line must be empty too",
            )
        aligned = score_aligned_line(gold_words, run_words)
        first = int(np.searchsorted(word_starts, int(gold_ends[line - 1]) + 1 if line else 0))
        counts.gold_correct[first : first + len(gold_words)] = aligned.gold_correct
        patched_first = int(np.searchsorted(patched_starts, patched_line_starts[line]))
        run_correct_parts += [
            counts.run_correct[copied:patched_first],
            np.array(aligned.run_correct, np.bool_),
        ]
        copied = patched_first + len(gold_words)
        # The patched line had every gold word correct and one run word per gold word.
        counts.test_words += aligned.run_words - len(gold_words)
        counts.insertions += aligned.insertions
        counts.deletions += aligned.deletions
        counts.substitutions += aligned.substitutions
    run_correct_parts.append(counts.run_correct[copied:])
    counts.run_correct = np.concatenate(run_correct_parts)
