"""Sections that the apps above bakeoff add to pages they do not own.

A page names a place, ``{% sections "leaderboard.track.table" %}`` (tag library ``bakeoff_tags``);
an app with something to show there registers a function in its ``AppConfig.ready()``::

    sections.add("leaderboard.track.table", analysis_sections.track_bootstrap)

The function takes the page's template context and answers HTML, typically by rendering a
template of its own app with ``sections.render``. A page thus never names another app's templates
or tag libraries, and renders unchanged, without the section, when that app is not installed.
Sections of a place are shown in the order they were added (the order of INSTALLED_APPS).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.template import Context
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

Section = Callable[[Context], str]

_places: dict[str, list[Section]] = {}


T = TypeVar("T")


def add(place: str, section: Section) -> None:
    """Show ``section`` at ``place``; adding the same function twice shows it once."""
    added = _places.setdefault(place, [])
    if section not in added:
        added.append(section)


def remove(place: str, section: Section) -> None:
    if section in _places.get(place, []):
        _places[place].remove(section)


def at(place: str) -> list[Section]:
    return list(_places.get(place, []))


def render_place(place: str, context: Context) -> SafeString:
    return mark_safe("".join(conditional_escape(section(context)) for section in at(place)))


def render(context: Context, template_name: str, data: dict[str, Any]) -> SafeString:
    """``template_name`` rendered with ``data`` alone (as an inclusion tag would), in the page's
    template engine, keeping its autoescaping and its CSRF token."""
    assert context.template is not None  # a tag renders inside a template
    template = context.template.engine.get_template(template_name)
    own = context.new(data)
    if "csrf_token" in context:
        own["csrf_token"] = context["csrf_token"]
    return mark_safe(template.render(own))


def shared(context: Context, key: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per page render: for two sections of one app that show parts of the
    same data (one query, not two)."""
    memo = context.render_context
    if key not in memo:
        memo[key] = compute()
    value: T = memo[key]  # compute()'s answer: one key, one compute
    return value
