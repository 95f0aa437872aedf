"""Diagnosis from attribute buckets (docs/measures/buckets.md): self-diagnosis, aided diagnosis,
track profile."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .attributes import mean_values
from .buckets import BucketedGold, RunBuckets
from .ranks import friedman

SIGNIFICANCE = 0.05


@dataclass(frozen=True)
class SelfDiagnosis:
    """A run's worst bucket of one attribute, its best, and the gap between their F."""

    attribute: str
    worst: str
    worst_f: float
    best: str
    best_f: float

    @property
    def gap(self) -> float:
        return self.best_f - self.worst_f

    def to_dict(self) -> dict[str, Any]:
        return {
            "worst": self.worst,
            "worst_f": self.worst_f,
            "best": self.best,
            "best_f": self.best_f,
            "gap": self.gap,
        }


def self_diagnosis(analysis: RunBuckets) -> tuple[SelfDiagnosis, ...]:
    """Per attribute, the bucket with the lowest F and the gap to the highest (the first bucket
    in order on a tie); attributes with no bucket of defined F are left out.

    >>> from scoring import BucketedGold, Dictionary, analyse_run, build_gold_index
    >>> from scoring import prepare_track, score_run_details
    >>> words = Dictionary.from_words(["结婚", "的"])
    >>> gold = build_gold_index("结婚 的 和尚\\n我 爱 北京\\n", words)
    >>> track = BucketedGold.prepare(prepare_track(gold, None))
    >>> run = score_run_details("结婚 的和尚\\n我 爱 北京\\n", gold)
    >>> analysis = analyse_run(track, run, samples=50)
    >>> [(d.attribute, d.worst, d.best, round(d.gap, 3)) for d in self_diagnosis(analysis)][:2]
    [('wLen', 'wLen {3}', 'wLen {1}', 0.8), ('sLen', 'sLen (4, 5]', 'sLen {4}', 0.6)]
    """
    found = []
    for attribute in analysis.attributes:
        defined = [(b.f, b.label) for b in attribute.buckets if b.f is not None]
        if not defined:
            continue
        worst = min(defined, key=lambda fl: fl[0])
        best = max(defined, key=lambda fl: fl[0])
        found.append(SelfDiagnosis(attribute.attribute, worst[1], worst[0], best[1], best[0]))
    return tuple(found)


@dataclass(frozen=True)
class AidedDiagnosis:
    """Where, for one attribute, the weaker run B beats the stronger run A by the most or, when
    B beats A nowhere, where A beats B by the most (``b_better`` tells which)."""

    attribute: str
    bucket: str
    a_f: float
    b_f: float

    @property
    def b_better(self) -> bool:
        return self.b_f > self.a_f

    @property
    def difference(self) -> float:
        """F of B minus F of A in the bucket."""
        return self.b_f - self.a_f

    def to_dict(self) -> dict[str, Any]:
        return {
            "bucket": self.bucket,
            "a_f": self.a_f,
            "b_f": self.b_f,
            "difference": self.difference,
            "b_better": self.b_better,
        }


def aided_diagnosis(a: RunBuckets, b: RunBuckets) -> tuple[AidedDiagnosis, ...]:
    """Aided diagnosis of run A against run B, where A is the better run (F_A ≥ F_B).

    Only buckets where both runs have a defined F are compared; ties go to the first bucket.
    """
    if a.signature.scheme_checksum != b.signature.scheme_checksum:
        raise ValueError("the runs were bucketed by different schemes")
    if a.f < b.f:
        raise ValueError("run A must have the higher F (swap the runs)")
    found = []
    for bucketed_a in a.attributes:
        bucketed_b = b[bucketed_a.attribute]
        pairs = [
            (x.label, x.f, y.f)
            for x, y in zip(bucketed_a.buckets, bucketed_b.buckets, strict=True)
            if x.f is not None and y.f is not None
        ]
        if not pairs:
            continue
        label, f_a, f_b = max(pairs, key=lambda p: p[2] - p[1])
        if f_b <= f_a:
            label, f_a, f_b = max(pairs, key=lambda p: p[1] - p[2])
        found.append(AidedDiagnosis(bucketed_a.attribute, label, f_a, f_b))
    return tuple(found)


@dataclass(frozen=True)
class AttributeProfile:
    """One attribute of a track: α^μ, α^ρ and the Friedman test over systems × buckets.

    The Friedman test takes the buckets whose F is defined for every system; it needs at least
    three such buckets and two systems, and is None otherwise (or when every F is tied).
    """

    attribute: str
    mean_value: float
    mean_abs_spearman: float | None
    friedman_statistic: float | None
    friedman_p: float | None

    @property
    def buckets_differ(self) -> bool | None:
        return None if self.friedman_p is None else self.friedman_p < SIGNIFICANCE

    def to_dict(self) -> dict[str, Any]:
        return {
            "alpha_mu": self.mean_value,
            "alpha_rho": self.mean_abs_spearman,
            "friedman_statistic": self.friedman_statistic,
            "friedman_p": self.friedman_p,
            "buckets_differ": self.buckets_differ,
        }


def track_profile(
    track: BucketedGold, analyses: Sequence[RunBuckets]
) -> tuple[AttributeProfile, ...]:
    """α^μ (mean attribute value over the test words), α^ρ (mean |S^ρ| over the systems whose
    S^ρ is defined) and the Friedman test, for every attribute of the track's scheme."""
    means = mean_values(track.attributes.gold_values)
    profiles = []
    for scheme in track.scheme.attributes:
        name = scheme.attribute
        rhos = [abs(rho) for a in analyses if (rho := a[name].spearman) is not None]
        statistic, p = _friedman([[b.f for b in a[name].buckets] for a in analyses])
        profiles.append(
            AttributeProfile(
                attribute=name,
                mean_value=means[name],
                mean_abs_spearman=sum(rhos) / len(rhos) if rhos else None,
                friedman_statistic=statistic,
                friedman_p=p,
            )
        )
    return tuple(profiles)


def _friedman(table: list[list[float | None]]) -> tuple[float | None, float | None]:
    if len(table) < 2:
        return None, None
    columns = [
        [value for row in table if (value := row[k]) is not None]
        for k in range(len(table[0]))
        if all(row[k] is not None for row in table)
    ]
    if len(columns) < 3:
        return None, None
    statistic, p = (float(figure) for figure in friedman(*columns))
    if math.isnan(statistic) or math.isnan(p):
        return None, None
    return statistic, p
