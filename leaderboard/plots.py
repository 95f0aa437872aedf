"""Plots as hand-built SVG: server-rendered, no JavaScript, no plotting library.

- ``systems_by_track``: a figure of every system on every track, BASE and TOP marked (the F
  scores of SIGHAN 2003's Figure 1, the OOV recall of its Figure 2);
- ``confidence_bars``: one track, F of each system with its 95% interval (F ± 2·sqrt(F(1−F)/N)).

Every text is escaped; the functions answer a complete ``<svg>`` element as a string.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.translation import gettext as _

RUN, BASE, TOP = "run", "baseline", "topline"
COLOURS = {RUN: "#1f5fbf", BASE: "#a3261b", TOP: "#1d6b35"}
INK, MUTED, GRID = "#1d2330", "#5b6475", "#d9dde5"
# Chinese labels from the fonts each system has (as the pages' CSS: no web font).
FONT = (
    "font-family=\"system-ui, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', "
    "'Noto Sans CJK SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei', sans-serif\" font-size=\"11\""
)


@dataclass(frozen=True)
class Point:
    label: str
    value: float | None
    kind: str = RUN  # run, baseline or topline
    half_width: float = 0.0


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[Point]


def _axis_floor(values: Sequence[float]) -> float:
    low = min(values, default=0.0)
    return max(0.0, math.floor(low * 20 - 1e-9) / 20) if low < 1 else 0.9


def _ticks(low: float, high: float) -> list[float]:
    step = 0.05 if high - low <= 0.3 else 0.1
    first = math.ceil(low / step - 1e-9)
    return [round(i * step, 2) for i in range(first, int(high / step + 1e-9) + 1)]


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="{escape(title)}" '
        f'class="plot">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _legend(x: float, y: float) -> list[str]:
    parts = []
    for i, (kind, text) in enumerate(((RUN, _("systems")), (BASE, "BASE"), (TOP, "TOP"))):
        cx = x + i * 90
        if kind == RUN:
            mark = f'<circle cx="{cx + 5}" cy="{y - 4}" r="4" fill="{COLOURS[kind]}"/>'
        else:
            mark = (
                f'<line x1="{cx - 2}" y1="{y - 4}" x2="{cx + 12}" y2="{y - 4}" '
                f'stroke="{COLOURS[kind]}" stroke-width="3"/>'
            )
        parts.append(mark + f'<text x="{cx + 16}" y="{y}" {FONT} fill="{INK}">{text}</text>')
    return parts


def systems_by_track(series: Sequence[Series], *, title: str, axis: str) -> str:
    """Every track a column; systems as dots, BASE and TOP as short bars across the column."""
    values = [p.value for s in series for p in s.points if p.value is not None]
    low, high = _axis_floor(values), 1.0
    left, top, plot_h = 56, 34, 300
    column = max(110, 480 // max(len(series), 1))
    width = left + column * max(len(series), 1) + 20
    height = top + plot_h + 44

    def y(v: float) -> float:
        return top + (high - v) / (high - low) * plot_h

    body = _legend(left, 16)
    for tick in _ticks(low, high):
        body.append(
            f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - 20}" y2="{y(tick):.1f}" '
            f'stroke="{GRID}"/><text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" '
            f'{FONT} fill="{MUTED}">{tick:.2f}</text>'
        )
    body.append(
        f'<text transform="translate(14 {top + plot_h / 2:.0f}) rotate(-90)" text-anchor="middle" '
        f'{FONT} fill="{INK}">{escape(axis)}</text>'
    )
    for i, s in enumerate(series):
        centre = left + column * i + column / 2
        body.append(
            f'<text x="{centre:.1f}" y="{top + plot_h + 18}" text-anchor="middle" {FONT} '
            f'fill="{INK}">{escape(s.name)}</text>'
        )
        # BASE and TOP first, so that the systems' dots are drawn over their bars
        for p in s.points:
            if p.kind == RUN or p.value is None:
                continue
            body.append(
                f'<line x1="{centre - 30:.1f}" y1="{y(p.value):.1f}" x2="{centre + 30:.1f}" '
                f'y2="{y(p.value):.1f}" stroke="{COLOURS[p.kind]}" stroke-width="3">'
                f"<title>{escape(p.label)}: {p.value:.3f}</title></line>"
            )
        runs = [p for p in s.points if p.kind == RUN and p.value is not None]
        for j, p in enumerate(runs):
            assert p.value is not None
            offset = ((j % 7) - 3) * 6  # spread equal values so each dot shows
            body.append(
                f'<circle cx="{centre + offset:.1f}" cy="{y(p.value):.1f}" r="4" '
                f'fill="{COLOURS[RUN]}" fill-opacity="0.75"><title>{escape(p.label)}: '
                f"{p.value:.3f}</title></circle>"
            )
    if not series:
        empty = escape(_("No track."))
        body.append(f'<text x="{left + 10}" y="{top + 40}" {FONT} fill="{MUTED}">{empty}</text>')
    return _svg(width, height, title, body)


def confidence_bars(points: Sequence[Point], *, title: str) -> str:
    """One row per system: F as a dot, its 95% interval as a bar."""
    shown = [p for p in points if p.value is not None]
    ends = [p.value - p.half_width for p in shown if p.value is not None]
    low, high = _axis_floor(ends), 1.0
    row = 16 if len(shown) <= 60 else 10
    left, right, top = 150, 24, 30
    plot_w = 420
    width = left + plot_w + right
    height = top + row * max(len(shown), 1) + 30

    def x(v: float) -> float:
        return left + (min(max(v, low), high) - low) / (high - low) * plot_w

    body = _legend(left, 14)
    bottom = top + row * max(len(shown), 1)
    for tick in _ticks(low, high):
        body.append(
            f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{bottom}" '
            f'stroke="{GRID}"/><text x="{x(tick):.1f}" y="{bottom + 16}" text-anchor="middle" '
            f'{FONT} fill="{MUTED}">{tick:.2f}</text>'
        )
    for i, p in enumerate(shown):
        assert p.value is not None
        cy = top + row * i + row / 2
        colour = COLOURS[p.kind]
        body.append(
            f'<text x="{left - 8}" y="{cy + 4:.1f}" text-anchor="end" {FONT} fill="{INK}">'
            f"{escape(p.label)}</text>"
            f'<path d="M{x(p.value - p.half_width):.1f} {cy - 3:.1f}v6m0 -3'
            f'H{x(p.value + p.half_width):.1f}m0 -3v6" stroke="{colour}" fill="none" '
            f'stroke-width="1.5"/><circle cx="{x(p.value):.1f}" cy="{cy:.1f}" r="3.5" '
            f'fill="{colour}"><title>{escape(p.label)}: F = {p.value:.3f} ± '
            f"{p.half_width:.4f}</title></circle>"
        )
    if not shown:
        empty = escape(_("No scored run."))
        body.append(f'<text x="{left}" y="{top + 12}" {FONT} fill="{MUTED}">{empty}</text>')
    return _svg(width, height, title, body)
