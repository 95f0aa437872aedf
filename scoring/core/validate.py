"""Checking that a run segments exactly the text it was given (docs/validation.md)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt

from .align import first_difference
from .errors import LineCountError, RunValidationError
from .segmentation import LF, Lines, Segmentation, line_bytes, parse
from .text import UTF8


def validate_run(
    run: str | bytes | Segmentation,
    test_text: str | bytes | Segmentation,
    *,
    encoding: str = UTF8,
) -> Segmentation:
    """Raise RunValidationError at the first line where the run, whitespace removed, differs from
    the test text; return the run's segmentation otherwise. Bytes are decoded from ``encoding``.

    >>> validate_run("结婚 的 和尚\\n", "结婚的和尚\\n").line_words(0)
    ['结婚', '的', '和尚']
    >>> validate_run("结婚 的 和尚\\n", "结婚的和尚呢\\n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.core.errors.RunValidationError: line 1, column 6: expected '呢' (U+5462), found the ...
    """
    run_seg = run if isinstance(run, Segmentation) else parse(run, encoding)
    test_seg = test_text if isinstance(test_text, Segmentation) else parse(test_text)
    run_seg = with_line_count(run_seg, test_seg)
    lines = differing_lines(run_seg, test_seg)
    if lines.size:
        raise mismatch_error(run_seg, test_seg, int(lines[0]))
    return run_seg


def with_line_count(run: Segmentation, reference: Lines) -> Segmentation:
    """The run with the reference's number of lines, where the lines it lacks or has in excess
    are empty lines at the end (docs/validation.md#empty-lines): a run without the gold's
    trailing empty line, say. An empty line holds no words, so no figure changes (and the Perl
    scorer ignores such lines too). Raises LineCountError when other lines are missing or added.
    """
    run_count, reference_count = int(run.line_ends().size), int(reference.line_ends().size)
    if run_count == reference_count:
        return run
    shorter = min(run_count, reference_count)
    longer = run if run_count > reference_count else reference
    tail_start = int(longer.line_ends()[shorter - 1]) + 1 if shorter else 0
    if np.any(longer.compact[tail_start:] != LF):
        raise line_count_error(run, reference)
    if run_count > reference_count:
        return Segmentation(run.compact[:tail_start], run.word_start[:tail_start])
    missing = reference_count - run_count
    return Segmentation(
        np.concatenate((run.compact, np.full(missing, LF, np.uint8))),
        np.concatenate((run.word_start, np.zeros(missing, np.bool_))),
    )


def differing_lines(run: Lines, reference: Lines) -> npt.NDArray[np.int64]:
    """The 0-based lines whose characters differ between a run and a reference text.

    Raises LineCountError when the two do not have the same number of lines.
    """
    if run.compact.size == reference.compact.size and np.array_equal(
        run.compact, reference.compact
    ):
        return np.zeros(0, np.int64)
    run_ends, reference_ends = run.line_ends(), reference.line_ends()
    if run_ends.size != reference_ends.size:
        raise line_count_error(run, reference)
    run_lengths = np.diff(run_ends, prepend=-1)
    reference_lengths = np.diff(reference_ends, prepend=-1)
    differs = run_lengths != reference_lengths
    # Between two lines of different lengths lies a stretch of lines that have the same lengths
    # on both sides, so the same bytes if they are equal: compare each stretch as one slice.
    lines = int(run_ends.size)
    for before, after in pairwise([-1, *np.flatnonzero(differs).tolist(), lines]):
        if after - before < 2:
            continue
        run_first = int(run_ends[before]) + 1 if before >= 0 else 0
        reference_first = int(reference_ends[before]) + 1 if before >= 0 else 0
        stop = int(reference_ends[after - 1]) + 1
        unequal = np.flatnonzero(
            run.compact[run_first : run_first + stop - reference_first]
            != reference.compact[reference_first:stop]
        )
        if unequal.size:
            differs[np.searchsorted(reference_ends, reference_first + unequal)] = True
    return np.flatnonzero(differs)


def mismatch_error(run: Lines, reference: Lines, line_index: int) -> RunValidationError:
    expected = line_bytes(reference, line_index).decode(UTF8)
    found = line_bytes(run, line_index).decode(UTF8)
    column, expected_char, found_char = first_difference(expected, found)
    return RunValidationError(
        line=line_index + 1,
        column=column,
        expected=expected_char,
        found=found_char,
        reason="the run's characters must be those of the test text, line for line",
    )


# More lines missing or added than this, and the file is more likely the wrong one (another
# corpus's run, a run cut short) than a run that lost a line.
MANY_LINES = 10


def line_count_error(run: Lines, reference: Lines) -> LineCountError:
    """Point at the first line that differs, which is where a line was dropped or added."""
    run_count, reference_count = int(run.line_ends().size), int(reference.line_ends().size)
    reason = (
        f"the run has {run_count} lines and the test text {reference_count}: "
        f"a line was {'dropped' if run_count < reference_count else 'added'} at or before here"
    )
    if abs(run_count - reference_count) > MANY_LINES:
        reason += "; is this the right file?"
    for index in range(min(run_count, reference_count)):
        expected = line_bytes(reference, index)
        found = line_bytes(run, index)
        if expected != found:
            column, expected_char, found_char = first_difference(
                expected.decode(UTF8), found.decode(UTF8)
            )
            return LineCountError(
                line=index + 1,
                column=column,
                expected=expected_char,
                found=found_char,
                reason=reason,
                run_lines=run_count,
                reference_lines=reference_count,
            )
    # Every common line is equal: point at the first line with characters that one side lacks.
    longer = reference if reference_count > run_count else run
    index = min(run_count, reference_count)
    while index < int(longer.line_ends().size) - 1 and not line_bytes(longer, index):
        index += 1
    extra = line_bytes(longer, index).decode(UTF8)[:1]
    if run_count == 0:
        reason = f"the run is an empty file, and the test text has {reference_count} lines"
    return LineCountError(
        line=index + 1,
        column=1,
        expected=extra if reference_count > run_count else "",
        found="" if reference_count > run_count else extra,
        reason=reason,
        run_lines=run_count,
        reference_lines=reference_count,
    )
