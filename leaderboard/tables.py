"""A track's table as SIGHAN printed it (Tables 5 to 12): figures with 3 decimals, intervals
with 4 (docs/track-table.md). Sorting happens on the rows in memory: no query per click.

django-tables2 defines the columns, their headers and the sorting; the body is written by
``StandingTable.body_html`` in one pass, because django-tables2's per-cell machinery (a template
variable, a signature inspection and an attribute merge per cell) takes about 3 ms per row: close
to a second for a track of 300 runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from .rows import Row

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


def _fixed(value: float | None, places: int) -> str:
    return "--" if value is None else f"{value:.{places}f}"


class FigureColumn(tables.Column):
    places = 3

    def __init__(self, header: str, key: str, **kwargs: Any) -> None:
        super().__init__(
            verbose_name=mark_safe(header),  # headers are constants of this module
            order_by=(f"{key}_key", "position"),
            attrs=NUM,
            default="--",
            **kwargs,
        )

    def render(self, value: float) -> str:
        return _fixed(value, self.places)


class IntervalColumn(FigureColumn):
    places = 4


def _paper(row: Row) -> str:
    return getattr(row, "paper", "")  # post-bakeoff rows have none


# The body's cells, escaped: one function per column.
CELLS: dict[str, Callable[[Row], str]] = {
    "rank": lambda r: "" if r.rank is None else str(r.rank),
    "code": lambda r: (
        format_html('<a href="{}">{}</a>', r.url, r.code)
        + (format_html(' <a class="paper" href="{}">paper</a>', r.paper) if _paper(r) else "")
    ),
    "name": lambda r: escape(r.name),
    "run": lambda r: r.run,
    "true_words": lambda r: str(r.score.true_words),
    "recall": lambda r: _fixed(r.score.recall, 3),
    "cr": lambda r: _fixed(r.cr, 4),
    "precision": lambda r: _fixed(r.score.precision, 3),
    "cp": lambda r: _fixed(r.cp, 4),
    "f": lambda r: f"<strong>{_fixed(r.score.f, 3)}</strong>",
    "oov_rate": lambda r: _fixed(r.score.oov_rate, 3),
    "oov_recall": lambda r: _fixed(r.score.oov_recall, 3),
    "iv_recall": lambda r: _fixed(r.score.iv_recall, 3),
    "f_b": lambda r: _fixed(r.standing.f_b, 3),
}


class StandingTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), order_by=("position",), attrs=NUM, default="")
    code = tables.Column(verbose_name=_("Site"), order_by=("code", "position"))
    name = tables.Column(verbose_name=_("Name"), order_by=("name", "position"), default="")
    run = tables.Column(verbose_name=_("Run"), order_by=("run", "position"), attrs=NUM, default="")
    true_words = tables.Column(verbose_name=_("Words"), attrs=NUM, orderable=False)
    recall = FigureColumn("R", "recall")
    cr = IntervalColumn("C<sub>r</sub>", "cr")
    precision = FigureColumn("P", "precision")
    cp = IntervalColumn("C<sub>p</sub>", "cp")
    f = FigureColumn("F", "f")
    oov_rate = FigureColumn("OOV", "oov_rate")
    oov_recall = FigureColumn("R<sub>oov</sub>", "oov_recall")
    iv_recall = FigureColumn("R<sub>iv</sub>", "iv_recall")
    f_b = FigureColumn("F<sub>b</sub>", "f_b")

    class Meta:
        attrs = {"class": "standings"}  # noqa: RUF012
        empty_text = "No scored run yet."
        order_by_field = "sort"
        template_name = "leaderboard/_standings.html"

    def body_html(self) -> SafeString:
        """The rows, in the table's current order (after sorting)."""
        columns = [
            (CELLS[c.name], ' class="num"' if c.attrs.get("td", {}).get("class") else "")
            for c in self.columns
        ]
        if not len(self.data):
            return format_html('<tr><td colspan="{}">{}</td></tr>', len(columns), self.empty_text)
        rows = []
        for i, row in enumerate(self.rows):
            record: Row = row.record
            css = " ".join(filter(None, (record.css, "odd" if i % 2 else "even")))
            cells = "".join(f"<td{attrs}>{cell(record)}</td>" for cell, attrs in columns)
            rows.append(f'<tr class="{css}">{cells}</tr>')
        return mark_safe("\n".join(rows))  # every cell is escaped by CELLS


def standing_table(rows: list[Row], *, names: bool) -> StandingTable:
    return StandingTable(rows, exclude=() if names else ("name",))
