"""Showing instants in a bakeoff's zone, in UTC and in the reader's own zone, the time left before
a date of the timetable, figures as SIGHAN printed them, and the sections other apps add to a page
(``bakeoff.sections``)."""

from __future__ import annotations

import bisect
import re
import zoneinfo
from datetime import UTC, datetime, timedelta, tzinfo

from django import template
from django.utils import timezone, translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_stubs_ext import StrOrPromise

from .. import errors
from .. import sections as page_sections
from ..models import Bakeoff

register = template.Library()


@register.simple_tag
def gap() -> str:
    """``{% gap %}`` between two translated sentences, or before a parenthesis: a space in
    English, nothing in Chinese (``bakeoff.errors.gap``). A space written in the template would
    stand between two Chinese sentences too."""
    return errors.gap()


def _zone_name(zone: tzinfo) -> str:
    return zone.key if isinstance(zone, zoneinfo.ZoneInfo) else str(zone)


def _reader_zone(*shown: str) -> zoneinfo.ZoneInfo | None:
    """The reader's zone (their settings or their browser's), unless it is one already shown."""
    current = timezone.get_current_timezone()
    if not isinstance(current, zoneinfo.ZoneInfo) or current.key in (*shown, "UTC", "Etc/UTC"):
        return None
    return current


def _instant(value: datetime, zones: list[str], *parts: SafeString) -> SafeString:
    """The instant inside an element that the browser's script (static/bakeoff/reader.js) adds the
    reader's zone to, when it is none of ``zones``."""
    return format_html(
        '<span class="instant" data-utc="{}" data-zones="{}">{}</span>',
        value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        " ".join(zones),
        # an absent reader's part leaves no space before the punctuation that follows
        format_html_join(" ", "{}", ((part,) for part in parts if part)),
    )


def _reader_part(value: datetime, zone: zoneinfo.ZoneInfo | None) -> SafeString:
    if zone is None:
        return SafeString("")
    reader = value.astimezone(zone)
    return format_html(
        '<span class="reader">· {} ({})</span>', f"{reader:%Y-%m-%d %H:%M}", zone.key
    )


@register.filter
def in_zones(value: datetime | None, bakeoff: Bakeoff) -> str:
    """``2005-07-27 20:00 CST (Asia/Shanghai) · 2005-07-27 12:00 UTC``, then the reader's zone
    when it is neither: ``· 2005-07-27 14:00 (Europe/Paris)``."""
    if value is None:
        return "—"
    local = value.astimezone(bakeoff.zone)
    utc = value.astimezone(UTC)
    reader = _reader_part(value, _reader_zone(bakeoff.time_zone))
    if bakeoff.time_zone == "UTC":
        return _instant(value, ["UTC"], format_html("{} UTC", f"{utc:%Y-%m-%d %H:%M}"), reader)
    return _instant(
        value,
        [bakeoff.time_zone, "UTC"],
        format_html("{} {} ({})", f"{local:%Y-%m-%d %H:%M}", local.tzname(), bakeoff.time_zone),
        format_html('<span class="utc">· {} UTC</span>', f"{utc:%Y-%m-%d %H:%M}"),
        reader,
    )


@register.filter
def day_in(value: datetime | None, bakeoff: Bakeoff) -> str:
    """The day of an instant in the bakeoff's zone, the zone the page leads with, for a table's
    narrow date column (``2005-07-27 CST``); the hour is in its title."""
    if value is None:
        return "—"
    local = value.astimezone(bakeoff.zone)
    return format_html(
        '<time class="day" datetime="{}" title="{}">{} {}</time>',
        value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({bakeoff.time_zone})",
        f"{local:%Y-%m-%d}",
        local.tzname(),
    )


@register.filter
def in_utc(value: datetime | None) -> str:
    """An instant that belongs to no bakeoff: in UTC, then in the reader's zone."""
    if value is None:
        return "—"
    utc = value.astimezone(UTC)
    return _instant(
        value,
        ["UTC"],
        format_html("{} UTC", f"{utc:%Y-%m-%d %H:%M}"),
        _reader_part(value, _reader_zone()),
    )


def duration(span: timedelta) -> str:
    """``2 days 4 hours``, ``3 hours 5 minutes``, ``12 minutes``: the two largest units."""
    minutes = int(abs(span).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = []
    if days:
        parts.append(ngettext("%(count)d day", "%(count)d days", days) % {"count": days})
    if hours:
        parts.append(ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours})
    if minutes and not days:
        parts.append(
            ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
        )
    if not parts:
        return _("less than a minute")
    return " ".join(parts)


def next_date(bakeoff: Bakeoff, now: datetime) -> tuple[StrOrPromise, datetime] | None:
    """The next date of the timetable after ``now``, or None when every date has passed."""
    upcoming = [(label, at) for label, at in bakeoff.timetable() if at is not None and at > now]
    return min(upcoming, key=lambda pair: pair[1]) if upcoming else None


@register.simple_tag
def time_left(until: datetime | None, now: datetime) -> SafeString:
    """``3 days 4 hours left`` or ``passed 2 hours ago``, refreshed by the browser's script."""
    if until is None:
        return SafeString("")
    left = until - now
    if left.total_seconds() > 0:
        text = _("%(duration)s left") % {"duration": duration(left)}
        state = "left"
    else:
        text = _("passed %(duration)s ago") % {"duration": duration(left)}
        state = "passed"
    return format_html(
        '<span class="countdown {}" data-until="{}" data-left="{}" data-passed="{}" '
        'data-units="{}">{}</span>',
        state,
        until.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        _("%(duration)s left"),
        _("passed %(duration)s ago"),
        "|".join(
            [
                ngettext("%(count)d day", "%(count)d days", 1),
                ngettext("%(count)d day", "%(count)d days", 2),
                ngettext("%(count)d hour", "%(count)d hours", 1),
                ngettext("%(count)d hour", "%(count)d hours", 2),
                ngettext("%(count)d minute", "%(count)d minutes", 1),
                ngettext("%(count)d minute", "%(count)d minutes", 2),
                _("less than a minute"),
            ]
        ),
        text,
    )


@register.simple_tag
def next_timetable_date(bakeoff: Bakeoff, now: datetime) -> SafeString:
    """The next date of the timetable and the time left before it, or that every date passed."""
    upcoming = next_date(bakeoff, now)
    if upcoming is None:
        return format_html(
            '<p class="next-date passed">{}</p>', _("Every date of the timetable has passed.")
        )
    label, at = upcoming
    return format_html(
        '<p class="next-date"><strong>{}</strong> {} · {}</p>',
        _("Next: %(date)s") % {"date": label},
        in_zones(at, bakeoff),
        time_left(at, now),
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


# Han characters and the CJK punctuation around them (、。「」（）：…), a run of which is Chinese.
_CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]+")
# The opening tag of an element whose text is left as it is: raw text (a span would show, or break
# the script), an SVG (a plot's labels: no HTML there), a list of options (no element inside one),
# and any element that says its own language.
_LEFT = re.compile(
    r"<(script|style|textarea|title|svg|select)\b[^>]*>|<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*\slang\s*=[^>]*>",
    re.IGNORECASE,
)
# Elements that are never closed: one with a ``lang`` says nothing of the text after it.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


def _left_spans(html: str) -> tuple[list[int], list[int]]:
    """Where each element whose text is left as it is starts and ends (the same element inside
    itself counted), in order."""
    starts: list[int] = []
    ends: list[int] = []
    for found in _LEFT.finditer(html):
        if ends and found.start() < ends[-1]:
            continue  # inside the one before
        name = (found.group(1) or found.group(2)).lower()
        if name in _VOID or found.group(0).endswith("/>"):
            continue
        depth, end = 1, len(html)
        same = re.compile(rf"<(/?){name}\b[^>]*>", re.IGNORECASE)
        for tag in same.finditer(html, found.end()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = tag.end()
                break
        starts.append(found.start())
        ends.append(end)
    return starts, ends


@register.filter
def chinese_marked(html: str) -> SafeString:
    """An English page's HTML with each run of Chinese in its text marked ``lang="zh"`` (WCAG
    3.1.2, language of parts): a screen reader then reads 结果 with a Chinese voice, not as
    English letters. Tags and their attributes are left as they are, and so is the text of the
    elements above (``_LEFT``). Only the runs of Chinese are visited: a page without any costs
    one search."""
    text = str(html)
    if not _CHINESE.search(text):
        return mark_safe(text)  # the page's own rendered HTML, as it is
    starts, ends = _left_spans(text)

    def marked(run: re.Match[str]) -> str:
        at = run.start()
        if text.rfind("<", 0, at) > text.rfind(">", 0, at):
            return run.group(0)  # in a tag: an attribute's value
        index = bisect.bisect_right(starts, at) - 1
        if index >= 0 and at < ends[index]:
            return run.group(0)
        return f'<span lang="zh">{run.group(0)}</span>'

    return mark_safe(_CHINESE.sub(marked, text))  # the page's own rendered HTML, only spans added


@register.filter
def language_marked(html: str) -> SafeString:
    """The HTML of a page's content, its runs of Chinese marked where the page is not in Chinese
    (``chinese_marked``): a site's, a corpus's or a note's Chinese in an English page."""
    language = translation.get_language() or ""
    if language.startswith("zh"):
        return mark_safe(str(html))  # the page's own rendered HTML, as it is
    return chinese_marked(html)
