"""Tables of figures in templates, from ``bakeoff.figures``: ``{% load figures %}``, then
``{% table_figures as figures %}`` (or ``development_figures``), a head cell
``{{ figure|figure_header }}`` and a body cell ``{% figure_cell row figure %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from ..figures import DEVELOPMENT_FIGURES, TABLE_FIGURES, Figure

register = template.Library()


@register.simple_tag
def table_figures() -> tuple[Figure, ...]:
    """The figures of the track and post-bakeoff tables, in order."""
    return TABLE_FIGURES


@register.simple_tag
def development_figures() -> tuple[Figure, ...]:
    """The figures of the development table, in order."""
    return DEVELOPMENT_FIGURES


@register.filter
def figure_header(figure: Figure) -> SafeString:
    """The short head of the figure's column: HTML of the registry (a constant), or a
    translated word, escaped."""
    if isinstance(figure.header, str):
        return mark_safe(figure.header)  # a constant of bakeoff.figures
    return conditional_escape(figure.header)


@register.simple_tag
def figure_cell(row: Any, figure: Figure) -> SafeString:
    """The figure of ``row`` (an attribute of that name) as the tables print it; bold where the
    figure is emphasised (F)."""
    text = figure.text(getattr(row, figure.key, None))
    return (
        format_html("<strong>{}</strong>", text) if figure.emphasised else conditional_escape(text)
    )
