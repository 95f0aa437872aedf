"""The accuracy-by-difficulty chart (Qian et al. 2016, Figure 4), as hand-built SVG.

Ten bars, one per difficulty interval [0, 0.1], (0.1, 0.2], ..., (0.9, 1]: the share of the
interval's gold words the run segmented correctly, with the number of words under each bar.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext as _

from leaderboard.plots import COLOURS, FONT, GRID, INK, MUTED, RUN

WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 28, 56


def accuracy_by_difficulty(profile: Sequence[Mapping[str, Any]], *, title: str) -> str:
    """``profile``: the ``difficulty_profile`` of a balanced result (interval, words, accuracy)."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(profile), 1)
    body = [f'<text x="{LEFT}" y="16" {FONT} fill="{INK}">{escape(title)}</text>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = TOP + plot_h * (1 - tick)
        body.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" {FONT} '
            f'fill="{MUTED}">{tick:.2f}</text>'
        )
    for i, interval in enumerate(profile):
        x = LEFT + i * slot
        accuracy = interval.get("accuracy")
        label = escape(str(interval.get("interval", "")))
        if accuracy is not None:
            height = plot_h * float(accuracy)
            body.append(
                f'<rect x="{x + slot * 0.15:.1f}" y="{TOP + plot_h - height:.1f}" '
                f'width="{slot * 0.7:.1f}" height="{height:.1f}" fill="{COLOURS[RUN]}">'
                "<title>"
                + escape(
                    _("%(interval)s: %(accuracy).3f of %(words)d words")
                    % {
                        "interval": interval.get("interval", ""),
                        "accuracy": float(accuracy),
                        "words": int(interval["words"]),
                    }
                )
                + "</title></rect>"
            )
        body.append(
            f'<text x="{x + slot / 2:.1f}" y="{TOP + plot_h + 14}" text-anchor="middle" '
            f'{FONT} fill="{INK}">{label}</text>'
            f'<text x="{x + slot / 2:.1f}" y="{TOP + plot_h + 28}" text-anchor="middle" '
            f'{FONT} fill="{MUTED}">{int(interval.get("words", 0))}</text>'
        )
    body.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" {FONT} '
        f'fill="{MUTED}">'
        + escape(_("difficulty of the gold word (gold words in the interval)"))
        + "</text>"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title)}" '
        f'class="plot"><title>{escape(title)}</title>' + "".join(body) + "</svg>"
    )
