"""What the pages show, read from the stored analysis (nothing is computed from text here).

Each function takes what the page already loaded and makes a fixed number of queries: the run's
analysis page, the track section (under the SIGHAN table) and the bakeoff's Ψ matrix.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.models import Bakeoff, Corpus, Track
from leaderboard.rows import Row
from leaderboard.visibility import Viewer
from scoring import ATTRIBUTES, SCHEME_NAMES, UNAVAILABLE_REASON

from . import plots, stored
from .models import (
    FROZEN_FIELDS,
    FROZEN_RUN_FIELDS,
    CriterionDiscrepancy,
    RunAnalysis,
    TrackAnalysis,
)
from .prepared import UNAVAILABLE_PSI, has_training_text
from .services import pair_key

DESCRIPTIONS: dict[str, StrOrPromise] = {
    "wLen": _("word length (characters)"),
    "sLen": _("sentence length (characters)"),
    "oDen": _("OOV density of the sentence"),
    "wFre": _("word frequency in the training text"),
    "cFre": _("mean character frequency in the training text"),
    "wCon": _("label consistency of the word (ψ)"),
    "cCon": _("label consistency of its characters"),
}
# The reasons stored (in English) for an attribute or a Ψ not computed, in the reader's language.
REASONS: dict[str, StrOrPromise] = {
    UNAVAILABLE_REASON: _("needs the training corpus as running text; only a word list was given"),
    UNAVAILABLE_PSI: _(
        "no training text (only a word list): Ψ needs the training corpus as running text"
    ),
}


def said(reason: str) -> StrOrPromise:
    """A stored reason in the reader's language (one not known here as it is)."""
    return REASONS.get(reason, reason)


@dataclass(frozen=True)
class AttributeChart:
    attribute: str
    description: StrOrPromise
    svg: SafeString | None
    reason: StrOrPromise = ""
    spearman: float | None = None
    std: float | None = None


def restricted(analysis: RunAnalysis, domain: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The stored buckets and self-diagnosis of a run: on the whole test set, or on one domain's
    lines (empty when that was not computed)."""
    if domain is None:
        return analysis.buckets, analysis.self_diagnosis
    stored = analysis.domains or {}
    return (
        stored.get("buckets", {}).get(domain, {}),
        stored.get("self_diagnosis", {}).get(domain, {}),
    )


def attribute_charts(data: dict[str, Any]) -> list[AttributeChart]:
    """Per attribute, in the order of docs/measures/buckets.md: the bar chart of F per bucket, or
    why it is unavailable (``data``: stored buckets, RunBuckets.to_dict)."""
    per_character = data["signature"].get("scheme") == SCHEME_NAMES["interpreteval"]
    charts = []
    for name in ATTRIBUTES:
        buckets = data["attributes"].get(name)
        description = DESCRIPTIONS[name]
        items = _("characters") if per_character and name in ("cFre", "cCon") else _("words")
        if buckets is None:
            reason = data.get("unavailable", {}).get(name, UNAVAILABLE_REASON)
            charts.append(AttributeChart(name, description, None, said(reason)))
            continue
        bars = [
            plots.Bar(
                label=b["label"].split(" ", 1)[-1],
                value=b["f"],
                interval=tuple(b["f_interval"]) if b["f_interval"] else None,
                note=f"{b['gold_words']} / {b['run_words']}\n{items}",
            )
            for b in buckets
        ]
        statistics = data["statistics"].get(name, {})
        title = _("%(name)s: F per bucket of %(description)s") % {
            "name": name,
            "description": description,
        }
        svg = plots.bucket_bars(bars, title=title, heading=f"{name}: {description}")
        charts.append(
            AttributeChart(
                name,
                description,
                mark_safe(svg),  # built by plots, every text escaped
                spearman=statistics.get("spearman"),
                std=statistics.get("std"),
            )
        )
    return charts


def candidates(rows: list[Row], submission_id: int) -> list[Row]:
    """The runs one may compare a run with: every other row the viewer may see."""
    return [row for row in rows if row.submission_id != submission_id]


def comparison(
    other: Row,
    mine: RunAnalysis,
    theirs: RunAnalysis | None,
    track_analysis: TrackAnalysis | None,
    label: str,
    domain: str | None = None,
) -> dict[str, Any]:
    """Aided diagnosis of the better run against the other, and their paired bootstrap (on the
    whole test set only: with a ``domain``, the diagnosis is of that domain's buckets)."""
    if theirs is None or theirs.scheme_checksum != mine.scheme_checksum:
        return {"other": other, "ready": False}
    mine_buckets, theirs_buckets = restricted(mine, domain)[0], restricted(theirs, domain)[0]
    if not mine_buckets or not theirs_buckets:
        return {"other": other, "ready": False}
    first_is_a, diagnosis = stored.aided(mine_buckets, theirs_buckets)
    a_label, b_label = (label, other.label) if first_is_a else (other.label, label)
    pair = (track_analysis.pairs if track_analysis and domain is None else {}).get(
        pair_key(mine.submission_id, other.submission_id)
    )
    if pair is not None:
        upper = label if pair["upper"] == mine.submission_id else other.label
        lower = other.label if upper == label else label
        pair = {**pair, "upper_label": upper, "lower_label": lower}
    return {
        "other": other,
        "ready": True,
        "a": a_label,
        "b": b_label,
        "diagnosis": [
            {**d.to_dict(), "attribute": d.attribute, "margin": abs(d.difference)}
            for d in diagnosis
        ],
        "bootstrap": pair,
    }


def track_section(
    track: Track,
    viewer: Viewer,
    rows: list[Row],
    frozen: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The adjacent-rank bootstraps among the rows shown and, for whom sees every run, the
    attribute profile of the track (α^ρ averages every system's S^ρ). One query; none for a
    published results version, whose ``frozen`` sections hold the analysis as it was published.

    A bootstrap compares two runs alone; the profile, its Friedman tests and a failed analysis's
    reason are about every run, so before publication only the organisers read them."""
    if frozen is not None:
        track_analysis = thawed_analysis(track, frozen.get("analysis"))
    else:
        track_analysis = TrackAnalysis.objects.filter(track=track).first()
    if track_analysis is not None and track_analysis.error and not viewer.sees_statistics:
        return {}
    if track_analysis is None or not track_analysis.scheme:
        return {"analysis": track_analysis}
    ranked = [row for row in rows if row.rank is not None]
    adjacent = []
    for upper, lower in pairwise(ranked):
        pair = track_analysis.pairs.get(pair_key(upper.submission_id, lower.submission_id))
        if pair is not None:
            adjacent.append({"upper": upper, "lower": lower, "probability": pair["probability"]})
    section: dict[str, Any] = {"analysis": track_analysis, "adjacent": adjacent}
    if viewer.sees_statistics:
        section["profile"] = track_analysis.profile
        section["profile_plot"] = mark_safe(_profile_plot(track_analysis))
    return section


def thawed_analysis(track: Track, data: dict[str, Any] | None) -> TrackAnalysis | None:
    """The analysis a results version froze (``receivers.freeze_analysis``), never saved; None
    when the track had none (its section then holds only ``runs``)."""
    if data is None or "computed_at" not in data:
        return None
    return TrackAnalysis(
        track=track,
        computed_at=_instant(data["computed_at"]),
        started_at=_instant(data["started_at"]),
        **{name: data[name] for name in FROZEN_FIELDS if name in data},
    )


def runs_frozen(data: dict[str, Any] | None) -> bool:
    """Whether a results version's analysis section (``receivers.freeze_analysis``) holds its
    runs' analyses: a version frozen before they were kept has none, and its pages say so."""
    return isinstance(data, dict) and isinstance(data.get("runs"), dict)


def thawed_run_analyses(data: dict[str, Any] | None) -> dict[int, RunAnalysis]:
    """The runs' analyses a results version froze, by run (submission pk), never saved."""
    if not runs_frozen(data):
        return {}
    assert data is not None
    found = {}
    for submission, run in data["runs"].items():
        found[int(submission)] = RunAnalysis(
            score_id=run.get("score"),
            submission_id=int(submission),
            computed_at=_instant(run["computed_at"]),
            **{name: run[name] for name in FROZEN_RUN_FIELDS if name in run},
        )
    return found


def _instant(value: str) -> datetime:
    parsed = parse_datetime(value)
    assert parsed is not None  # written by isoformat()
    return parsed


def _profile_plot(analysis: TrackAnalysis) -> str:
    profile = {p["attribute"]: p for p in analysis.profile}
    bars = []
    for name in ATTRIBUTES:
        p = profile.get(name)
        if p is None:
            bars.append(plots.Bar(name, None, note=str(_("unavailable (no training text)"))))
            continue
        bars.append(plots.Bar(f"{name} (α^μ {p['alpha_mu']:.3g})", p["alpha_rho"]))
    return plots.profile_bars(bars, title=str(_("α^ρ per attribute: mean |S^ρ| over the systems")))


@dataclass(frozen=True)
class PsiRow:
    corpus: Corpus
    values: list[float | None]
    reason: StrOrPromise


def criterion_matrix(bakeoff: Bakeoff, tracks: list[Track]) -> dict[str, Any]:
    """Ψ(training of the row's corpus, test of the column's corpus), RethinkCWS Table 5."""
    corpora = list({t.corpus_id: t.corpus for t in tracks}.values())
    stored_values = {
        (d.training_corpus_id, d.test_corpus_id): d.value
        for d in CriterionDiscrepancy.objects.filter(training_corpus__bakeoff=bakeoff)
    }
    rows = [
        PsiRow(
            corpus,
            [stored_values.get((corpus.pk, test.pk)) for test in corpora],
            "" if has_training_text(corpus) else said(UNAVAILABLE_PSI),
        )
        for corpus in corpora
    ]
    return {"corpora": corpora, "rows": rows}
