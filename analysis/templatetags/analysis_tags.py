"""Template helpers of the analysis pages, and the sections analysis adds to the leaderboard's.

The sections are tags of this library taking the page's context; ``AnalysisConfig.ready()`` puts
them at their places of the leaderboard's pages (``bakeoff.sections``), whose templates thus name
neither this library nor its templates.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from bakeoff import sections
from scoring import ATTRIBUTES

from .. import pages

register = template.Library()


@register.filter
def in_attribute_order(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """A stored dict keyed by attribute, as (name, value) pairs in the order of
    docs/measures/buckets.md: PostgreSQL's jsonb keeps no key order."""
    return [(name, values[name]) for name in ATTRIBUTES if name in values]


@register.filter
def said(reason: str) -> str:
    """A reason stored in English, in the reader's language."""
    return str(pages.said(reason))


@register.simple_tag(takes_context=True)
def run_tab(context: template.Context) -> SafeString:
    """On a run's page (``leaderboard/run.html``): the link to its analysis."""
    return sections.render(
        context,
        "analysis/_run_tab.html",
        {
            "bakeoff": context["bakeoff"],
            "track": context["track"],
            "submission_id": context["standing"].submission_id,
        },
    )


def _track_section(context: template.Context) -> dict[str, Any]:
    """What the track's two sections show, read once per page (one query)."""
    rows = context.get("rows") or []
    return sections.shared(
        context,
        "analysis.track_section",
        lambda: (
            pages.track_section(
                context["track"], context["viewer"], rows, context.get("frozen_sections")
            )
            if rows
            else {}
        ),
    )


@register.simple_tag(takes_context=True)
def track_bootstrap(context: template.Context) -> SafeString:
    """Under a track's table (``leaderboard/track.html``): the adjacent-rank bootstraps."""
    return sections.render(
        context,
        "analysis/_track_bootstrap.html",
        {"analysis": _track_section(context), "viewer": context["viewer"]},
    )


@register.simple_tag(takes_context=True)
def track_profile(context: template.Context) -> SafeString:
    """At the end of a track's page: the attribute profile of the track."""
    return sections.render(
        context, "analysis/_track_profile.html", {"analysis": _track_section(context)}
    )


@register.simple_tag(takes_context=True)
def criterion(context: template.Context) -> SafeString:
    """Under a bakeoff's summary (``leaderboard/bakeoff.html``), for whom sees every run: Ψ
    between its corpora."""
    if not context["viewer"].sees_all:
        return SafeString()
    tracks = [track for track, _ in context["summary"]]
    return sections.render(
        context,
        "analysis/_criterion.html",
        {"criterion": pages.criterion_matrix(context["bakeoff"], tracks)},
    )
