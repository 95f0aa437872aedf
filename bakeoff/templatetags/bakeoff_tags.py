"""Showing instants in a bakeoff's zone and in UTC, figures as SIGHAN printed them, and the
sections other apps add to a page (``bakeoff.sections``)."""

from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .. import sections as page_sections
from ..models import Bakeoff

register = template.Library()


@register.filter
def in_zones(value: datetime | None, bakeoff: Bakeoff) -> str:
    """``2005-07-27 20:00 CST (Asia/Shanghai) · 2005-07-27 12:00 UTC``"""
    if value is None:
        return "—"
    local = value.astimezone(bakeoff.zone)
    utc = value.astimezone(UTC)
    if bakeoff.time_zone == "UTC":
        return format_html("{} UTC", f"{utc:%Y-%m-%d %H:%M}")
    return format_html(
        '{} {} ({}) <span class="utc">· {} UTC</span>',
        f"{local:%Y-%m-%d %H:%M}",
        local.tzname(),
        bakeoff.time_zone,
        f"{utc:%Y-%m-%d %H:%M}",
    )


@register.filter
def fig(value: float | None, places: int = 3) -> str:
    """A figure with 3 decimals, or ``--`` where it is undefined."""
    if value is None:
        return "--"
    return f"{value:.{int(places)}f}"


@register.simple_tag(takes_context=True)
def sections(context: template.Context, place: str) -> SafeString:
    """``{% sections "leaderboard.track.table" %}``: what the installed apps show at this place."""
    return page_sections.render_place(place, context)
