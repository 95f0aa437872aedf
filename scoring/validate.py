"""Checking that a run segments exactly the text it was given (SPEC §1)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .align import first_difference
from .errors import LineCountError, RunValidationError
from .io import UTF8
from .segmentation import Positions, Segmentation, parse


def validate_run(
    run: str | bytes | Segmentation,
    test_text: str | bytes | Segmentation,
    *,
    encoding: str = UTF8,
) -> Segmentation:
    """Raise RunValidationError at the first line where the run, whitespace removed, differs from
    the test text; return the run's segmentation otherwise. Bytes are decoded from ``encoding``."""
    run_seg = run if isinstance(run, Segmentation) else parse(run, encoding)
    test_seg = test_text if isinstance(test_text, Segmentation) else parse(test_text)
    lines = differing_lines(run_seg, test_seg)
    if lines.size:
        raise mismatch_error(run_seg, test_seg, int(lines[0]))
    return run_seg


def differing_lines(run: Segmentation, reference: Segmentation) -> npt.NDArray[np.int64]:
    """The 0-based lines whose characters differ between a run and a reference text.

    Raises LineCountError when the two do not have the same number of lines.
    """
    if run.size == reference.size and np.array_equal(run.compact, reference.compact):
        return np.zeros(0, np.int64)
    run_ends, reference_ends = run.line_ends(), reference.line_ends()
    if run_ends.size != reference_ends.size:
        raise line_count_error(run, reference, run_ends, reference_ends)
    run_lengths = np.diff(run_ends, prepend=-1)
    reference_lengths = np.diff(reference_ends, prepend=-1)
    same_length = run_lengths == reference_lengths
    differs = ~same_length
    if same_length.any():
        unequal = (
            run.compact[np.repeat(same_length, run_lengths)]
            != reference.compact[np.repeat(same_length, reference_lengths)]
        )
        if unequal.any():
            line_of_byte = np.repeat(np.flatnonzero(same_length), reference_lengths[same_length])
            differs[np.unique(line_of_byte[unequal])] = True
    return np.flatnonzero(differs)


def mismatch_error(
    run: Segmentation,
    reference: Segmentation,
    line_index: int,
    run_ends: Positions | None = None,
    reference_ends: Positions | None = None,
) -> RunValidationError:
    expected = reference.line_bytes(line_index, reference_ends).decode(UTF8)
    found = run.line_bytes(line_index, run_ends).decode(UTF8)
    column, expected_char, found_char = first_difference(expected, found)
    return RunValidationError(
        line=line_index + 1,
        column=column,
        expected=expected_char,
        found=found_char,
        reason="the run's characters must be those of the test text, line for line",
    )


def line_count_error(
    run: Segmentation,
    reference: Segmentation,
    run_ends: Positions,
    reference_ends: Positions,
) -> LineCountError:
    """Point at the first line that differs, which is where a line was dropped or added."""
    run_count, reference_count = int(run_ends.size), int(reference_ends.size)
    reason = (
        f"the run has {run_count} lines and the test text {reference_count}: "
        f"a line was {'dropped' if run_count < reference_count else 'added'} at or before here"
    )
    for index in range(min(run_count, reference_count)):
        expected = reference.line_bytes(index, reference_ends)
        found = run.line_bytes(index, run_ends)
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
            )
    index = min(run_count, reference_count)
    longer, ends = (reference, reference_ends) if reference_count > run_count else (run, run_ends)
    extra = longer.line_bytes(index, ends).decode(UTF8)[:1]
    return LineCountError(
        line=index + 1,
        column=1,
        expected=extra if reference_count > run_count else "",
        found="" if reference_count > run_count else extra,
        reason=reason,
    )
