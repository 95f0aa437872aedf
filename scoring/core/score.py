"""Word scores of a run against a gold index (docs/measures/scoring.md), vectorised over the whole
corpus.

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

from .align import AlignmentLimitError, first_difference, score_aligned_line
from .dictionary import Dictionary
from .errors import RunValidationError
from .gold import GoldIndex, build_gold_index
from .result import Score, Signature
from .segmentation import Mask, Positions, Segmentation, parse
from .text import UTF8
from .validate import differing_lines, mismatch_error, with_line_count
from .version import __version__

ANY_LINE: Literal["any"] = "any"
AlignedLines = Collection[int] | Literal["any"]
Counts = npt.NDArray[np.int64]
# Tokens counted at once: bounds the temporary arrays of a ten-million-word corpus.
_BLOCK_TOKENS = 1 << 20


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

    def lines_as_gold(self) -> tuple[int, int]:
        """(lines segmented exactly as the gold, lines): of the lines that hold a word, those
        whose every gold word the run found and where it has no other word. A system's output
        matches on some lines; a copy of the released gold with a few changes matches on nearly
        all of them.

        >>> words = Dictionary.from_words(["结婚", "的"])
        >>> gold = build_gold_index("结婚 的\\n我 爱 北京\\n\\n", words)
        >>> score_run_details("结婚 的\\n我 爱北京\\n\\n", gold).lines_as_gold()
        (1, 2)
        """
        gold_words, run_words, correct = self.line_counts()
        worded = gold_words > 0
        same = worded & (correct == gold_words) & (run_words == gold_words)
        return int(np.count_nonzero(same)), int(np.count_nonzero(worded))


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

    >>> words = Dictionary.from_words(["结婚", "的"])
    >>> gold = build_gold_index("结婚 的 和尚\\n我 爱 北京\\n", words)
    >>> score = score_run("结婚 的和尚\\n我 爱 北京\\n", gold)
    >>> score.true_words, score.test_words, score.correct
    (6, 5, 4)
    >>> round(score.recall, 3), round(score.precision, 3), round(score.f, 3)
    (0.667, 0.8, 0.727)
    """
    return score_run_details(run, gold, aligned_lines=aligned_lines, encoding=encoding).score


def score_texts(
    gold_text: str,
    run_text: str,
    dictionary: Dictionary,
    *,
    aligned_lines: AlignedLines = ANY_LINE,
) -> Score:
    """Score a run given as text against a gold standard given as text.

    >>> score = score_texts("结婚 的 和尚\\n", "结婚 的和尚\\n", Dictionary.from_words(["结婚"]))
    >>> score.correct, round(score.f, 3), score.oov_words
    (1, 0.4, 2)
    """
    return score_run(run_text, build_gold_index(gold_text, dictionary), aligned_lines=aligned_lines)


def score_run_details(
    run: str | bytes | Segmentation,
    gold: GoldIndex,
    *,
    aligned_lines: AlignedLines = (),
    encoding: str = UTF8,
) -> ScoredRun:
    """The score of a run with the facts behind it: which gold and run words are correct, the
    run's segmentation and the gold index (what the bootstrap, buckets and balanced F use).

    ``aligned_lines`` names the 1-based lines allowed to differ in characters from the gold (or
    ``"any"``); such lines are scored by aligning their characters, others are refused.

    >>> gold = build_gold_index("结婚 的 和尚\\n", Dictionary.from_words([]))
    >>> run = score_run_details("结婚 的和尚\\n", gold)
    >>> run.gold_correct.tolist(), run.run_correct.tolist(), run.score.correct
    ([True, False, False], [True, False], 1)
    """
    segmentation = run if isinstance(run, Segmentation) else parse(run, encoding)
    segmentation = with_line_count(segmentation, gold)
    mismatched = differing_lines(segmentation, gold)
    if mismatched.size and aligned_lines != ANY_LINE:
        allowed = {int(n) - 1 for n in aligned_lines}
        refused = [int(i) for i in mismatched if int(i) not in allowed]
        if refused:
            raise mismatch_error(segmentation, gold, refused[0])
    boundary = segmentation.boundaries()
    if mismatched.size:
        # The differing lines take the gold's cuts, so that the arrays line up with the gold's;
        # they are then scored on their own by character alignment.
        boundary = _with_gold_lines(boundary, segmentation, gold, mismatched)
    counts = _count(boundary, gold)
    del boundary
    if mismatched.size:
        _rescore_aligned_lines(counts, segmentation, gold, mismatched)
    gold_correct = counts.gold_correct
    score = Score(
        true_words=gold.true_words,
        test_words=segmentation.word_count,
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
    run_correct: Mask  # of the run whose boundaries were counted
    insertions: int = 0
    deletions: int = 0
    substitutions: int = 0


def _count(boundary: Mask, gold: GoldIndex) -> _Counts:
    """Counts for a run whose cuts are ``boundary`` over the gold's compact bytes."""
    counts = _Counts(
        gold_correct=np.zeros(gold.true_words, np.bool_),
        run_correct=np.zeros(int(np.count_nonzero(boundary)) - gold.line_count, np.bool_),
    )
    # Blocks end with a line's LF token, so no stretch between correct words crosses a block.
    lf_tokens = gold.lf_tokens
    cuts = np.searchsorted(lf_tokens, np.arange(_BLOCK_TOKENS, gold.tokens.size, _BLOCK_TOKENS))
    ends = np.append(lf_tokens[np.minimum(cuts, lf_tokens.size - 1)], lf_tokens[-1])
    # Sorted already: dropping repeats is np.unique without its import of numpy.ma (10 ms).
    block_ends = ends[np.append(True, ends[1:] != ends[:-1])]
    first_token = gold_words = run_words = 0
    for last_token in block_ends.tolist():
        gold_words, run_words = _count_block(
            counts, boundary, gold, first_token, last_token + 1, gold_words, run_words
        )
        first_token = last_token + 1
    return counts


def _count_block(
    counts: _Counts,
    boundary: Mask,
    gold: GoldIndex,
    first_token: int,
    stop_token: int,
    gold_offset: int,
    run_offset: int,
) -> tuple[int, int]:
    """Count the tokens [first_token, stop_token), which end with an LF token."""
    base = int(gold.tokens[first_token])
    end = int(gold.tokens[stop_token - 1]) + 1
    cuts = boundary[base:end]
    tokens = gold.tokens[first_token:stop_token] - base
    is_word = gold.is_word[first_token:stop_token]
    # Run cuts inside each gold token's span [start, next token's start), from a running count
    # (cheaper than np.add.reduceat, and the block bounds its memory).
    running = np.cumsum(cuts, dtype=np.int32)
    token_ends = np.append(tokens[1:], cuts.size)
    inside = running[token_ends - 1]
    inside[1:] -= running[tokens[1:] - 1]
    del running
    at_start = cuts[tokens]
    # A token ends where the next begins; the last token is an LF, which ends its line.
    at_end = np.empty_like(at_start)
    at_end[:-1] = at_start[1:]
    at_end[-1] = True
    correct_token = inside == 1
    correct_token &= at_start
    correct_token &= at_end

    run_words_in_token = np.where(is_word, inside, 0)
    run_before: npt.NDArray[np.signedinteger[Any]] = np.cumsum(run_words_in_token, dtype=np.int64)
    run_before -= run_words_in_token
    gold_before: npt.NDArray[np.signedinteger[Any]] = np.cumsum(is_word, dtype=np.int64)
    gold_before -= is_word
    # Between two consecutive correct tokens lie a unmatched gold words and b unmatched run words:
    # diff -y shows min(a, b) of them as substitutions and the rest as deletions or insertions.
    # Every line ends with an LF token that is always correct, so no stretch crosses a line.
    anchors = np.flatnonzero(correct_token)
    width = is_word[anchors].astype(np.int64)
    gold_at: Positions = gold_before[anchors]
    run_at: Positions = run_before[anchors]
    unmatched_gold = gold_at - np.concatenate(([0], gold_at[:-1] + width[:-1]))
    unmatched_run = run_at - np.concatenate(([0], run_at[:-1] + width[:-1]))
    substitutions = int(np.minimum(unmatched_gold, unmatched_run).sum())
    counts.substitutions += substitutions
    counts.insertions += int(unmatched_run.sum()) - substitutions
    counts.deletions += int(unmatched_gold.sum()) - substitutions

    block_gold_words = int(np.count_nonzero(is_word))
    counts.gold_correct[gold_offset : gold_offset + block_gold_words] = correct_token[is_word]
    counts.run_correct[run_offset + run_at[width == 1]] = True
    return gold_offset + block_gold_words, run_offset + int(run_words_in_token.sum())


def _with_gold_lines(boundary: Mask, run: Segmentation, gold: GoldIndex, lines: Positions) -> Mask:
    """The run's cuts with the given lines' replaced by the gold's, laid over the gold's bytes."""
    run_ends, gold_ends = run.line_ends(), gold.line_ends()
    pieces = []
    previous = 0
    for line in lines.tolist():
        run_first = int(run_ends[line - 1]) + 1 if line else 0
        gold_first = int(gold_ends[line - 1]) + 1 if line else 0
        pieces += [
            boundary[previous:run_first],
            gold.boundaries(gold_first, int(gold_ends[line]) + 1),
        ]
        previous = int(run_ends[line]) + 1
    pieces.append(boundary[previous:])
    return np.concatenate(pieces)


def _rescore_aligned_lines(
    counts: _Counts, run: Segmentation, gold: GoldIndex, lines: Positions
) -> None:
    """Replace what the gold-patched lines counted by their character-aligned scores.

    A patched line counted every gold word correct, as one run word each, and no change; its run
    flags stand where the patched run had the gold's words, and are swapped for the run's own.
    """
    # Where each differing line's words begin among the patched run's words: the run's words
    # before it, plus what the earlier patched lines added (gold words instead of run words).
    run_ends = run.line_ends()
    patched_before = {}
    run_words_before = added = position = 0
    for line in lines.tolist():
        start = int(run_ends[line - 1]) + 1 if line else 0
        run_words_before += int(np.count_nonzero(run.word_start[position:start]))
        patched_before[line] = run_words_before + added
        words_here = int(np.count_nonzero(run.word_start[start : int(run_ends[line])]))
        added += int(gold.words_per_line[line]) - words_here
        position = start

    run_correct_parts = []
    copied = 0  # patched run words already copied over
    for line in lines.tolist():
        gold_words = gold.line_words(line)
        run_words = run.line_words(line)
        if not gold_words:
            raise RunValidationError(
                line=line + 1,
                column=1,
                expected="",
                found=run_words[0][:1],
                reason="the gold line is empty, so the run's line must be empty too",
            )
        try:
            aligned = score_aligned_line(gold_words, run_words)
        except AlignmentLimitError as error:
            column, expected, found = first_difference("".join(gold_words), "".join(run_words))
            raise RunValidationError(
                line=line + 1,
                column=column,
                expected=expected,
                found=found,
                reason=f"the run's line and the gold's differ in more than {error.limit:,} "
                "characters, beyond what character alignment does per line",
            ) from None
        first = gold.first_word_of_line(line)
        counts.gold_correct[first : first + len(gold_words)] = aligned.gold_correct
        patched_first = patched_before[line]
        run_correct_parts += [
            counts.run_correct[copied:patched_first],
            np.array(aligned.run_correct, np.bool_),
        ]
        copied = patched_first + len(gold_words)
        counts.insertions += aligned.insertions
        counts.deletions += aligned.deletions
        counts.substitutions += aligned.substitutions
    run_correct_parts.append(counts.run_correct[copied:])
    counts.run_correct = np.concatenate(run_correct_parts)
