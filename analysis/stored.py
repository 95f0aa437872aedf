"""The analysis's stored results, read back as the scoring library's (no rescoring)."""

from __future__ import annotations

from typing import Any

from scoring import AidedDiagnosis, RunBuckets, aided_diagnosis


def aided(first: dict[str, Any], second: dict[str, Any]) -> tuple[bool, tuple[AidedDiagnosis, ...]]:
    """Aided diagnosis of the better of two stored analyses against the other
    (docs/measures/buckets.md#aided-diagnosis).

    Answers whether the first is the better one (A), and the diagnosis per attribute.
    """
    a, b = RunBuckets.from_dict(first), RunBuckets.from_dict(second)
    if a.f >= b.f:
        return True, aided_diagnosis(a, b)
    return False, aided_diagnosis(b, a)
