"""Hand-built SVG, as ``leaderboard.plots``: F per bucket of one attribute, and a track's profile.

Every text is escaped; each function answers a complete ``<svg>`` element as a string.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape

from leaderboard.plots import COLOURS, FONT, GRID, INK, MUTED, RUN

BAR = COLOURS[RUN]
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
# Advance widths at FONT's 11 px, a little generous so that no font's text overruns them: a
# Chinese character is square, Latin letters and digits about 0.6 of it.
WIDE_CHARACTER, NARROW_CHARACTER = 11.0, 6.4
COLUMN_GAP = 10


@dataclass(frozen=True)
class Bar:
    label: str
    value: float | None
    interval: tuple[float, float] | None = None
    note: str = ""


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="{escape(title)}" '
        f'class="plot"><title>{escape(title)}</title>' + "".join(body) + "</svg>"
    )


def axis_label(label: str) -> str:
    """A bucket's interval short enough for its column: boundaries to 4 significant digits (the
    bar's tooltip keeps them whole)."""
    return re.sub(r"\d+\.\d{4,}", lambda m: f"{float(m[0]):.4g}", label)


def text_width(text: str) -> float:
    """About how wide ``text`` is drawn in FONT: room to reserve for it, not a measurement."""
    return sum(
        WIDE_CHARACTER if unicodedata.east_asian_width(c) in "WF" else NARROW_CHARACTER
        for c in text
    )


def raised(text: str) -> str:
    """``text`` escaped, with each ``^x`` drawn as a superscript x: the α^ρ and S^ρ of the
    definitions, as the page's own text writes them with <sup> (a <title> keeps the caret: it
    shows plain text only)."""
    return re.sub(
        r"\^(\w)", r'<tspan baseline-shift="super" font-size="8">\1</tspan>', str(escape(text))
    )


def bucket_bars(bars: Sequence[Bar], *, title: str, heading: str = "") -> str:
    """One column per bucket: F as a bar on a 0-1 axis, its bootstrap interval as a whisker,
    the bucket's interval and size below (a note of several lines, one under the other). A
    bucket without F (no word) is marked "--".

    A column is as wide as the widest line under it, so that neighbouring labels never run into
    each other."""
    left, top, plot_h, line_h = 40, 30, 150, 14
    notes = [bar.note.split("\n") if bar.note else [] for bar in bars]
    widest = max(
        (
            text_width(t)
            for bar, lines in zip(bars, notes, strict=True)
            for t in (axis_label(bar.label), *lines)
        ),
        default=0,
    )
    column = max(96, math.ceil(widest) + COLUMN_GAP)
    width = max(left + column * max(len(bars), 1) + 16, 440)
    height = top + plot_h + 30 + line_h * max((len(lines) for lines in notes), default=1)

    def y(v: float) -> float:
        return top + (1 - min(max(v, 0.0), 1.0)) * plot_h

    body = [
        f'<text x="{left}" y="14" {FONT} fill="{INK}" font-weight="bold">'
        f"{escape(heading or title)}</text>"
    ]
    for tick in TICKS:
        body.append(
            f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - 16}" y2="{y(tick):.1f}" '
            f'stroke="{GRID}"/><text x="{left - 5}" y="{y(tick) + 4:.1f}" text-anchor="end" '
            f'{FONT} fill="{MUTED}">{tick:.2f}</text>'
        )
    base = top + plot_h
    for i, (bar, lines) in enumerate(zip(bars, notes, strict=True)):
        centre = left + column * i + column / 2
        body.append(
            f'<text x="{centre:.1f}" y="{base + 16}" text-anchor="middle" {FONT} fill="{INK}">'
            f"{escape(axis_label(bar.label))}</text>"
        )
        body.extend(
            f'<text x="{centre:.1f}" y="{base + 32 + line_h * k}" text-anchor="middle" {FONT} '
            f'fill="{MUTED}">{escape(line)}</text>'
            for k, line in enumerate(lines)
        )
        if bar.value is None:
            body.append(
                f'<text x="{centre:.1f}" y="{base - 6}" text-anchor="middle" {FONT} '
                f'fill="{MUTED}">--</text>'
            )
            continue
        shown = f"F = {bar.value:.3f}"
        if bar.interval:
            shown += f", 95% interval [{bar.interval[0]:.3f}, {bar.interval[1]:.3f}]"
        body.append(
            f'<rect x="{centre - 22:.1f}" y="{y(bar.value):.1f}" width="44" '
            f'height="{base - y(bar.value):.1f}" fill="{BAR}" fill-opacity="0.8">'
            f"<title>{escape(bar.label)}: {shown}</title></rect>"
            f'<text x="{centre + 25:.1f}" y="{y(bar.value) - 3:.1f}" {FONT} fill="{INK}">'
            f"{bar.value:.3f}</text>"
        )
        if bar.interval:
            low, high = y(bar.interval[0]), y(bar.interval[1])
            body.append(
                f'<path d="M{centre - 6:.1f} {high:.1f}h12m-6 0V{low:.1f}m-6 0h12" '
                f'stroke="{INK}" fill="none" stroke-width="1.3"/>'
            )
    return _svg(width, height, title, body)


def profile_bars(bars: Sequence[Bar], *, title: str) -> str:
    """One row per attribute: α^ρ (0-1) as a bar, α^μ in the label; "unavailable" where the
    attribute could not be computed."""
    left, top, row, plot_w = 170, 24, 22, 360
    width = left + plot_w + 60
    height = top + row * max(len(bars), 1) + 24

    def x(v: float) -> float:
        return left + min(max(v, 0.0), 1.0) * plot_w

    bottom = top + row * max(len(bars), 1)
    body = [
        f'<text x="{left}" y="14" {FONT} fill="{INK}" font-weight="bold">{raised(title)}</text>'
    ]
    for tick in TICKS:
        body.append(
            f'<line x1="{x(tick):.1f}" y1="{top}" x2="{x(tick):.1f}" y2="{bottom}" '
            f'stroke="{GRID}"/><text x="{x(tick):.1f}" y="{bottom + 16}" text-anchor="middle" '
            f'{FONT} fill="{MUTED}">{tick:.2f}</text>'
        )
    for i, bar in enumerate(bars):
        cy = top + row * i + row / 2
        body.append(
            f'<text x="{left - 8}" y="{cy + 4:.1f}" text-anchor="end" {FONT} fill="{INK}">'
            f"{raised(bar.label)}</text>"
        )
        if bar.value is None:
            body.append(
                f'<text x="{left + 6}" y="{cy + 4:.1f}" {FONT} fill="{MUTED}">'
                f"{escape(bar.note or '--')}</text>"
            )
            continue
        body.append(
            f'<rect x="{left}" y="{cy - 7:.1f}" width="{x(bar.value) - left:.1f}" height="14" '
            f'fill="{BAR}" fill-opacity="0.8"><title>{escape(bar.label)}: α^ρ = '
            f"{bar.value:.3f}</title></rect>"
            f'<text x="{x(bar.value) + 5:.1f}" y="{cy + 4:.1f}" {FONT} fill="{INK}">'
            f"{bar.value:.3f}</text>"
        )
    return _svg(width, height, title, body)
