"""A track's table by domain: one column per domain with a figure of each run on that domain's
lines (F by default), sortable like the SIGHAN table (docs/track-table.md#by-domain).

The figures are those each score stored (``Score.result["domains"]``, computed by the scoring
library from the corpus's domain labels); the rows are the track table's, for the same viewer, in
the same one query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.figures import BY_KEY, Figure
from bakeoff.models import Corpus

from .columns import DOMAIN_CHOICES, DOMAIN_DEFAULT, NAME, RANK, RUN, SITE
from .rows import Row
from .tables import CELLS, NUM, FigureColumn

#: The figures one may show per domain (``columns.DOMAIN_CHOICES``): key -> (header, label).
FIGURES: dict[str, tuple[StrOrPromise, StrOrPromise]] = {
    f.key: (f.header, f.label) for f in DOMAIN_CHOICES
}
PREFIX = "domain_"


def domain_figures(row: Row) -> dict[str, dict[str, Any]]:
    """The figures per domain a row's score stored, by domain (empty when it has none yet)."""
    return {d["domain"]: d for d in row.score.result.get("domains", ())}


def shown_domains(rows: Sequence[Row], corpus: Corpus) -> tuple[list[dict[str, Any]], str]:
    """The domains (name and lines, in order) and the labels' checksum the rows' figures go with.

    The corpus's, unless every row with figures per domain has them from one other set of labels:
    a frozen results version keeps the figures of its time, and its columns with them.
    """
    computed = [row.score.result for row in rows if "domains" in row.score.result]
    checksums = {result.get("domain_labels", "") for result in computed}
    if len(checksums) == 1 and checksums != {corpus.domain_labels_checksum}:
        return (
            [{"domain": d["domain"], "lines": d["lines"]} for d in computed[0]["domains"]],
            computed[0].get("domain_labels", ""),
        )
    return list(corpus.domains), corpus.domain_labels_checksum


@dataclass
class DomainRow(Row):
    """A row of the table by domain: the track table's row and one figure per domain."""

    values: list[float | None] = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        if name.startswith(PREFIX) and name[len(PREFIX) :].isdigit():
            return self.values[int(name[len(PREFIX) :])]
        return super().__getattr__(name)


def domain_rows(rows: list[Row], domains: list[str], figure: str) -> list[DomainRow]:
    found = []
    for row in rows:
        stored = domain_figures(row)
        values = [stored[d].get(figure) if d in stored else None for d in domains]
        found.append(
            DomainRow(
                standing=row.standing,
                score=row.score,
                code=row.code,
                name=row.name,
                label=row.label,
                url=row.url,
                own=row.own,
                shown_rank=row.shown_rank,
                values=values,
            )
        )
    return found


def _domain_cell(figure: Figure, index: int, row: DomainRow) -> str:
    return figure.text(row.values[index])


class DomainTable(tables.Table):
    rank = tables.Column(verbose_name=RANK.header, order_by=("position",), attrs=NUM, default="")
    code = tables.Column(verbose_name=SITE.header, order_by=("code", "position"))
    name = tables.Column(verbose_name=NAME.header, order_by=("name", "position"), default="")
    run = tables.Column(
        verbose_name=RUN.header, order_by=("run", "position"), attrs=NUM, default=""
    )
    f = FigureColumn(_("F (all domains)"), "f")
    figure: Figure = BY_KEY[DOMAIN_DEFAULT]  # the figure of the domains' columns

    class Meta:
        attrs = {"class": "standings by-domain"}  # noqa: RUF012
        empty_text = _("No scored run yet.")
        order_by_field = "sort"
        template_name = "leaderboard/_standings.html"

    def body_html(self) -> SafeString:
        """The rows in the table's current order, every cell escaped (as ``StandingTable``)."""
        cells: list[tuple[Callable[[DomainRow], str], str]] = []
        for column in self.columns:
            if column.name.startswith(PREFIX):
                index = int(column.name[len(PREFIX) :])
                cells.append((partial(_domain_cell, self.figure, index), ' class="num"'))
            else:
                numeric = column.attrs.get("td", {}).get("class")
                cells.append((CELLS[column.name], ' class="num"' if numeric else ""))
        if not len(self.data):
            return format_html('<tr><td colspan="{}">{}</td></tr>', len(cells), self.empty_text)
        body = []
        for i, row in enumerate(self.rows):
            record: DomainRow = row.record
            css = " ".join(filter(None, (record.css, "odd" if i % 2 else "even")))
            body.append(
                f'<tr class="{css}">'
                + "".join(f"<td{attrs}>{cell(record)}</td>" for cell, attrs in cells)
                + "</tr>"
            )
        return mark_safe("\n".join(body))  # every cell is escaped


def domain_table(
    rows: list[Row], corpus: Corpus, *, names: bool, figure: str = DOMAIN_DEFAULT
) -> DomainTable:
    """The table of ``rows`` with one column per domain (``shown_domains``), showing ``figure``."""
    domains = [str(d["domain"]) for d in shown_domains(rows, corpus)[0]]
    header = str(FIGURES[figure][0])
    extra = [
        (
            f"{PREFIX}{i}",
            # the header: the domain's name (escaped) and the figure shown
            FigureColumn(format_html("{} {}", domain, mark_safe(header)), f"{PREFIX}{i}"),
        )
        for i, domain in enumerate(domains)
    ]
    table = DomainTable(
        domain_rows(rows, domains, figure),
        extra_columns=extra,
        exclude=() if names else ("name",),
    )
    table.figure = BY_KEY[figure]
    return table
