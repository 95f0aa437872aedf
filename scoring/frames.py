"""The library's results as pandas DataFrames, for notebooks (the ``frames`` extra: pandas).

Each function takes results the library computed and lays them out as a table: a track's ranked
runs, the buckets of one or several runs, a track's attribute profile, the difficulty profile of
balanced scores. Nothing is computed again; pandas is imported when a table is made.

    >>> from scoring import Dictionary, build_gold_index, score_run
    >>> gold = build_gold_index("我 爱 北京\\n北京 是 首都\\n", Dictionary.from_words(["北京"]))
    >>> scores = {
    ...     "exact": score_run("我 爱 北京\\n北京 是 首都\\n", gold),
    ...     "joined": score_run("我爱 北京\\n北京 是首都\\n", gold),
    ... }
    >>> track_table(scores)[["rank", "words", "recall", "precision", "f"]]
    ... # doctest: +NORMALIZE_WHITESPACE
            rank  words    recall  precision    f
    run
    exact      1      6  1.000000        1.0  1.0
    joined     2      6  0.333333        0.5  0.4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .core.result import Score
from .core.table import rank_scores

if TYPE_CHECKING:
    from pandas import DataFrame  # type: ignore[import-untyped]

    from .fine.buckets import RunBuckets
    from .fine.diagnosis import AttributeProfile
    from .psychometric.balanced import BalancedScore


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:  # pragma: no cover - depends on the environment
        from .core.errors import ScoringError

        raise ScoringError("tables need pandas: pip install bakeoff-scoring[frames]") from None
    return pandas


def track_table(scores: Mapping[str, Score]) -> DataFrame:
    """The ranked table of a track's runs (as ``rank_scores`` ranks them), one row a run, best
    first: rank, the word counts, R with its interval half-width cr, P with cp, F, and the OOV
    figures (None where undefined)."""
    rows = [
        {
            "run": row.name,
            "rank": row.rank,
            "words": row.score.true_words,
            "run_words": row.score.test_words,
            "correct": row.score.correct,
            "recall": row.score.recall,
            "cr": row.cr,
            "precision": row.score.precision,
            "cp": row.cp,
            "f": row.score.f,
            "oov_rate": row.score.oov_rate,
            "oov_recall": row.score.oov_recall,
            "iv_recall": row.score.iv_recall,
        }
        for row in rank_scores(scores)
    ]
    return _pandas().DataFrame(rows).set_index("run")


_BUCKET_COLUMNS = (
    "gold_words",
    "run_words",
    "correct",
    "precision",
    "recall",
    "f",
    "f_low",
    "f_high",
)


def bucket_table(analysis: RunBuckets) -> DataFrame:
    """The buckets of one run's analysis, one row a bucket, indexed by attribute and bucket label,
    in the scheme's order; an unavailable attribute has no rows. F's bootstrap interval is
    ``f_low``, ``f_high`` (NaN where it was never defined)."""
    pandas = _pandas()
    rows = [
        {
            "attribute": attribute.attribute,
            "bucket": bucket.label,
            "gold_words": bucket.gold_words,
            "run_words": bucket.run_words,
            "correct": bucket.correct_gold,
            "precision": bucket.precision,
            "recall": bucket.recall,
            "f": bucket.f,
            "f_low": bucket.f_interval[0] if bucket.f_interval else None,
            "f_high": bucket.f_interval[1] if bucket.f_interval else None,
        }
        for attribute in analysis.attributes
        for bucket in attribute.buckets
    ]
    frame = pandas.DataFrame(rows, columns=["attribute", "bucket", *_BUCKET_COLUMNS])
    return frame.set_index(["attribute", "bucket"])


def bucket_f_table(analyses: Mapping[str, RunBuckets]) -> DataFrame:
    """F per bucket of several runs of one track side by side: one row a bucket (attribute and
    label), one column a run."""
    pandas = _pandas()
    return pandas.DataFrame({name: bucket_table(a)["f"] for name, a in analyses.items()})


def track_profile_table(profile: Sequence[AttributeProfile]) -> DataFrame:
    """A track's attribute profile (``track_profile``), one row an attribute: α^μ, α^ρ, the
    Friedman statistic and p, and whether the buckets differ."""
    rows = [{"attribute": p.attribute, **p.to_dict()} for p in profile]
    return _pandas().DataFrame(rows).set_index("attribute")


def difficulty_profile_table(scores: Mapping[str, BalancedScore]) -> DataFrame:
    """The difficulty profile of balanced scores: one row a difficulty interval, one column a
    run, the share of that interval's gold words the run found (NaN where it has none)."""
    pandas = _pandas()
    columns = {
        name: [interval.accuracy for interval in score.profile] for name, score in scores.items()
    }
    labels = [interval.label for interval in next(iter(scores.values())).profile] if scores else []
    frame = pandas.DataFrame(columns, index=pandas.Index(labels, name="difficulty"), dtype=float)
    return frame
