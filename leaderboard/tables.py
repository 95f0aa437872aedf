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
from django_stubs_ext import StrOrPromise

from bakeoff.figures import Figure, Kind

from .columns import NAME, RANK, RUN, SITE, TABLE_FIGURE_COLUMNS
from .rows import Figures, Row

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


def _fixed(value: float | None, places: int) -> str:
    return "--" if value is None else f"{value:.{places}f}"


class FigureColumn(tables.Column):
    places = 3

    def __init__(self, header: StrOrPromise, key: str, **kwargs: Any) -> None:
        super().__init__(
            # headers are constants (of this module or bakeoff.figures); a translated one is
            # plain text, kept lazy to follow the reader's language
            verbose_name=mark_safe(header) if isinstance(header, str) else header,
            order_by=(f"{key}_key", "position"),
            attrs=NUM,
            default="--",
            **kwargs,
        )

    def render(self, value: float) -> str:
        return _fixed(value, self.places)


def _paper(row: Row) -> str:
    return getattr(row, "paper", "")  # post-bakeoff rows have none


def figure_cell(figure: Figure) -> Callable[[Figures], str]:
    """The escaped cell of ``figure`` in a page's table (figures are numbers or ``--``)."""
    key = figure.key
    if figure.emphasised:
        return lambda r: f"<strong>{figure.text(getattr(r, key))}</strong>"
    return lambda r: figure.text(getattr(r, key))


# The body's cells, escaped: one function per column.
CELLS: dict[str, Callable[[Row], str]] = {
    "rank": lambda r: "" if r.rank is None else str(r.rank),
    "code": lambda r: (
        format_html('<a href="{}">{}</a>', r.url, r.code)
        + (format_html(' <a class="paper" href="{}">paper</a>', r.paper) if _paper(r) else "")
    ),
    "name": lambda r: escape(r.name),
    "run": lambda r: r.run,
    **{c.key: figure_cell(c.figure) for c in TABLE_FIGURE_COLUMNS if c.figure},
}


def figure_columns() -> list[tuple[str, tables.Column]]:
    """The figures' columns of a table (``columns.TABLE``), after the declared ones. A rate
    sorts; a count does not (every row of a table has the same gold, so the same N)."""
    return [
        (
            c.key,
            FigureColumn(c.header, c.key)
            if c.figure.kind is Kind.RATE
            else tables.Column(verbose_name=c.header, attrs=NUM, orderable=False),
        )
        for c in TABLE_FIGURE_COLUMNS
        if c.figure
    ]


class StandingTable(tables.Table):
    """The track table: the columns of ``columns.TABLE``, which row first (declared here, with
    their sorting), then the figures (``figure_columns``)."""

    rank = tables.Column(verbose_name=RANK.header, order_by=("position",), attrs=NUM, default="")
    code = tables.Column(verbose_name=SITE.header, order_by=("code", "position"))
    name = tables.Column(verbose_name=NAME.header, order_by=("name", "position"), default="")
    run = tables.Column(
        verbose_name=RUN.header, order_by=("run", "position"), attrs=NUM, default=""
    )

    class Meta:
        attrs = {"class": "standings"}  # noqa: RUF012
        empty_text = _("No scored run yet.")
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
    return StandingTable(rows, extra_columns=figure_columns(), exclude=() if names else ("name",))
