"""The time-zone menu of the two forms that ask for a zone (the organiser's bakeoff form and the
reader's settings): every zone the server knows, grouped by region, with the zones of the Chinese-
speaking regions this platform's bakeoffs are run from first. A plain ``<select>``, no script:
typing the first letters of a name jumps to it, and nobody has to spell Asia/Shanghai.

The menu holds every zone that validation accepts (``models.validate_time_zone``), so a zone
already saved is always among its options and a form never silently replaces it.
"""

from __future__ import annotations

import functools
import zoneinfo
from datetime import datetime, timedelta
from typing import Any, TypeAlias

from django import forms
from django.forms.renderers import BaseRenderer
from django.utils import timezone
from django.utils.choices import CallableChoiceIterator
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from .zones import known_zones

# Mainland China, Hong Kong, Macau, Taiwan, Singapore: where the SIGHAN bakeoffs' organisers and
# most of their sites were. UTC first, the platform's default.
USUAL_ZONES = (
    "UTC",
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Macau",
    "Asia/Taipei",
    "Asia/Singapore",
)

REGIONS: dict[str, StrOrPromise] = {
    "Africa": _("Africa"),
    "America": _("Americas"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic Ocean"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific Ocean"),
}

Options: TypeAlias = list[tuple[str, str]]


@functools.cache
def _zones() -> dict[str, zoneinfo.ZoneInfo]:
    # Kept: zoneinfo's own cache holds only a few zones strongly, and rebuilding the ~600 of the
    # menu for every page costs some 30 ms.
    return {name: zoneinfo.ZoneInfo(name) for name in sorted(known_zones())}


def utc_offset(offset: timedelta) -> str:
    """``UTC+08:00``, ``UTC+00:00``, ``UTC−03:30`` (with a minus sign).

    >>> utc_offset(timedelta(hours=-3, minutes=-30))
    'UTC−03:30'
    """
    sign = "−" if offset < timedelta(0) else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def zone_menu(now: datetime) -> list[tuple[StrOrPromise, Options]]:
    """The menu's groups, each a label and its options; a zone is named with its offset at
    ``now`` (it moves with daylight saving time)."""
    zones = _zones()

    def option(name: str) -> tuple[str, str]:
        offset = now.astimezone(zones[name]).utcoffset() or timedelta(0)
        return (name, name if name == "UTC" else f"{name} ({utc_offset(offset)})")

    regions: dict[str, Options] = {region: [] for region in REGIONS}
    others: Options = []
    for name in zones:
        region = name.split("/", 1)[0] if "/" in name else ""
        regions.get(region, others).append(option(name))
    menu: list[tuple[StrOrPromise, Options]] = [
        (_("Usual zones"), [option(name) for name in USUAL_ZONES if name in zones])
    ]
    menu.extend((label, regions[region]) for region, label in REGIONS.items() if regions[region])
    menu.append((_("Other names"), others))
    return menu


class ZoneSelect(forms.Select):
    """The menu as a form widget; the offsets are those of the moment the form is shown.
    ``blank``, when given, names a first option that means "no zone"."""

    def __init__(self, *, blank: StrOrPromise | None = None) -> None:
        def choices() -> list[Any]:
            first = [("", blank)] if blank is not None else []
            return [*first, *zone_menu(timezone.now())]

        super().__init__(choices=CallableChoiceIterator(choices))
        self.blank = blank

    def use_required_attribute(self, initial: Any) -> bool:
        """Django's asks whether the first choice is empty, and makes the whole menu for it: only
        the blank option is."""
        return not self.is_hidden and self.blank is not None

    def build_attrs(self, base_attrs: dict[str, Any], extra_attrs: Any = None) -> dict[str, Any]:
        attrs = super().build_attrs(base_attrs, extra_attrs)
        attrs.pop("maxlength", None)  # what a text field adds; no attribute of a <select>
        return attrs

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        """The markup of Django's ``select.html`` and ``select_option.html``, written here: Django
        renders each option through a template of its own, and some 600 of them made the form's
        page take half a second."""
        widget = self.get_context(name, value, attrs)["widget"]
        lines: list[str] = [
            format_html('<select name="{}"{}>', widget["name"], _attributes(widget["attrs"]))
        ]
        for group, options, _index in widget["optgroups"]:
            if group:
                lines.append(format_html('  <optgroup label="{}">', group))
            lines.extend(
                format_html(
                    '  <option value="{}"{}>{}</option>',
                    option["value"],
                    _attributes(option["attrs"]),
                    option["label"],
                )
                for option in options
            )
            if group:
                lines.append("  </optgroup>")
        lines.append("</select>")
        return mark_safe("\n".join(lines))  # every part escaped by format_html


def _attributes(attrs: dict[str, Any]) -> SafeString:
    """As Django's ``attrs.html`` writes them: in their order, ``True`` as a bare name, ``False``
    left out."""
    return mark_safe(  # every part escaped by format_html
        "".join(
            format_html(" {}", name) if value is True else format_html(' {}="{}"', name, value)
            for name, value in attrs.items()
            if value is not False
        )
    )
