"""The columns of every table of scores the leaderboard writes, in order, in one place.

A column is either a figure of ``bakeoff.figures`` (its headers, format and place come from
there) or one of the few that say which row it is (rank, site, name, run) or, in the CSV, what
the row was scored with and what it is. Every output reads its columns here: the track table
(``tables``), the post-bakeoff table (``templates/leaderboard/_post_bakeoff.html``), the table by
domain (``domains``), the CSV, JSON and LaTeX exports (``exports``), and the frozen format and the
erratum's comparison (``versions``). A figure added to ``bakeoff.figures`` appears in each of them
as its flags say (docs/track-table.md#adding-a-figure).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.figures import FIGURES, LIBRARY_FIGURES, ROW_FIGURES, TABLE_FIGURES, Figure, Kind


@dataclass(frozen=True)
class Column:
    key: str  # the row's attribute, and the column's name in a django-tables2 table
    header: StrOrPromise  # a page's table head (HTML)
    latex: StrOrPromise  # a LaTeX table's head
    csv: str  # the CSV's head
    figure: Figure | None = None

    @property
    def numeric(self) -> bool:
        return self.figure is not None or self.key in {"rank", "run"}


def _of(figure: Figure) -> Column:
    return Column(figure.key, figure.header, figure.latex, figure.csv or figure.key, figure)


RANK = Column("rank", _("Rank"), _("Rank"), "rank")
SITE = Column("code", _("Site"), _("Site"), "site")
NAME = Column("name", _("Name"), _("Name"), "name")  # left out where names are not shown
RUN = Column("run", _("Run"), _("Run"), "run")

#: The columns of the track table, its LaTeX export and (after its own lead) the post-bakeoff
#: table: which row, then each figure of the tables.
TABLE: tuple[Column, ...] = (RANK, SITE, NAME, RUN, *(_of(f) for f in TABLE_FIGURES))
#: The figures of a table row, in order.
TABLE_FIGURE_COLUMNS: tuple[Column, ...] = tuple(c for c in TABLE if c.figure is not None)

#: The CSV: which row, every figure with a CSV name, then what the row was scored with and is.
CSV: tuple[Column, ...] = (
    RANK,
    SITE,
    NAME,
    RUN,
    *(_of(f) for f in FIGURES if f.csv is not None),
    Column("gold_version", "", "", "gold_version"),
    Column("signature", "", "", "signature"),
    # "official", or "post-bakeoff" for the unofficial rows after the official ones
    # (docs/phases.md), with their receipt time
    Column("phase", "", "", "phase"),
    Column("received_at", "", "", "received_at"),
    # the run's system description (method, resources) and the site's paper for the track
    Column("description", "", "", "description"),
    Column("paper", "", "", "paper"),
)
CSV_HEADER: tuple[str, ...] = tuple(c.csv for c in CSV)

#: The figures of each domain in the CSV, after the other columns: ``F[news]`` and so on.
DOMAIN_CSV: tuple[Figure, ...] = tuple(f for f in FIGURES if f.csv_per_domain and f.csv)

#: The figures the table by domain can show, one column per domain: the library's rates, each
#: computed per domain (the default, F, first).
DOMAIN_DEFAULT = "f"
DOMAIN_CHOICES: tuple[Figure, ...] = tuple(
    sorted(
        (f for f in LIBRARY_FIGURES if f.kind is Kind.RATE),
        key=lambda f: f.key != DOMAIN_DEFAULT,
    )
)

#: The figures of a row that ``results.json`` gives beside the library's whole result (which has
#: the others): the intervals and the balanced F.
JSON_ROW_FIGURES: tuple[Figure, ...] = tuple(f for f in TABLE_FIGURES if f in ROW_FIGURES)

#: What a frozen results version keeps of each row: the score's figures and the row's own.
FROZEN_SCORE_FIGURES: tuple[str, ...] = tuple(f.key for f in LIBRARY_FIGURES)
FROZEN_ROW_FIGURES: tuple[str, ...] = tuple(f.key for f in ROW_FIGURES)

#: What an erratum compares between two versions, in the table's order.
COMPARED: tuple[Figure, ...] = tuple(f for f in FIGURES if f.compared)
