"""The scoring library's results, rebuilt from the JSON the analysis stored (no rescoring)."""

from __future__ import annotations

from typing import Any

from scoring import (
    ATTRIBUTES,
    AidedDiagnosis,
    AttributeBuckets,
    BucketScore,
    BucketSignature,
    RunBuckets,
    Score,
    aided_diagnosis,
)


def run_buckets(data: dict[str, Any]) -> RunBuckets:
    """A RunBuckets from its ``to_dict()``: the raw counts are stored, every figure follows."""
    attributes = tuple(
        AttributeBuckets(
            name,
            tuple(
                BucketScore(
                    label=b["label"],
                    gold_words=b["gold_words"],
                    run_words=b["run_words"],
                    correct_gold=b["correct_gold"],
                    correct_run=b["correct_run"],
                    f_interval=tuple(b["f_interval"]) if b["f_interval"] else None,
                )
                for b in buckets
            ),
        )
        # In the library's order: PostgreSQL's jsonb keeps no key order.
        for name in ATTRIBUTES
        if (buckets := data["attributes"].get(name)) is not None
    )
    analysed = data["analysed"]
    return RunBuckets(
        score=Score.from_dict(data["score"]),
        attributes=attributes,
        unavailable=tuple(
            (name, data["unavailable"][name]) for name in ATTRIBUTES if name in data["unavailable"]
        ),
        signature=BucketSignature(**data["signature"]),
        true_words=analysed["true_words"],
        test_words=analysed["test_words"],
        correct=analysed["correct"],
    )


def aided(first: dict[str, Any], second: dict[str, Any]) -> tuple[bool, tuple[AidedDiagnosis, ...]]:
    """Aided diagnosis of the better of two stored analyses against the other
    (docs/measures/buckets.md#aided-diagnosis).

    Answers whether the first is the better one (A), and the diagnosis per attribute.
    """
    a, b = run_buckets(first), run_buckets(second)
    if a.f >= b.f:
        return True, aided_diagnosis(a, b)
    return False, aided_diagnosis(b, a)
