"""A score's figures, defined once: one row per figure, in the order every table lists them.

Each row says what the figure is called (on pages, in a table's head, in LaTeX, in the CSV), how
it is printed, whether it is a count or a rate, where it comes from and whether an erratum
compares it. The stored scores (``do_store_score``, ``score_development``), the frozen results
versions, the tables, the exports and the erratum read this module; nothing else names a score's
figures. The column registry of the tables is ``leaderboard.columns``; how to add a figure is in
docs/track-table.md#adding-a-figure.

The scoring library names its figures (``scoring.Score.to_dict``); a figure of the library is
stored in a column of the same name on ``Score`` and ``DevelopmentScore``
(tests/bakeoff/test_figures.py checks both).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise


class Source(StrEnum):
    """Where a figure comes from."""

    #: computed by the scoring library (a key of ``scoring.Score.to_dict``), stored in a column
    #: of ``Score`` and of ``DevelopmentScore``
    LIBRARY = "library"
    #: computed per table row from the library's figures and stored on the row: the intervals
    #: (``leaderboard.services`` for the standings; a development score has its own)
    ROW = "row"
    #: computed from a committee's ratings of the gold words (psychometric) and stored on the
    #: standings: none until a committee has rated the corpus, never for a development run
    COMMITTEE = "committee"


class Kind(StrEnum):
    COUNT = "count"  # a whole number of words, printed as it is
    RATE = "rate"  # a ratio, printed with ``places`` decimals; None where undefined


MISSING = "--"  # how a page prints a figure that is undefined, or that a version did not freeze


@dataclass(frozen=True)
class Figure:
    key: str  # the library's name, the models' column, the frozen format's key
    label: StrOrPromise  # in the reader's language, for pages ("OOV recall")
    symbol: StrOrPromise  # short plain text, for sentences such as an erratum's ("R_oov")
    header: StrOrPromise  # short HTML, for a table's head ("R<sub>oov</sub>")
    latex: StrOrPromise  # for a LaTeX table's head ("$R_{oov}$")
    csv: str | None  # the CSV column; None: not in the CSV
    kind: Kind
    places: int = 3  # decimals of a rate
    source: Source = Source.LIBRARY
    in_table: bool = True  # a column of the track, post-bakeoff and LaTeX tables
    compared: bool = False  # an erratum lists it when it moves
    csv_per_domain: bool = False  # the CSV has a column of it per domain
    emphasised: bool = False  # bold in a page's table (F, what ranks)
    optional: bool = False  # left out of the LaTeX table when no row has it

    def text(self, value: Any) -> str:
        """As a page or LaTeX prints it: rates with their decimals, ``--`` where missing."""
        if value is None:
            return MISSING
        return str(value) if self.kind is Kind.COUNT else f"{value:.{self.places}f}"

    def csv_text(self, value: Any) -> Any:
        """As the CSV has it: empty where missing, counts as numbers."""
        if value is None:
            return ""
        return value if self.kind is Kind.COUNT else f"{value:.{self.places}f}"


def _rate(
    key: str, label: StrOrPromise, symbol: StrOrPromise, header: str, latex: str, **more: Any
) -> Figure:
    return Figure(
        key, label, symbol, header, latex, csv=more.pop("csv", symbol), kind=Kind.RATE, **more
    )


def _count(key: str, label: StrOrPromise, symbol: str, **more: Any) -> Figure:
    return Figure(
        key, label, symbol, more.pop("header", symbol), more.pop("latex", symbol),
        csv=more.pop("csv", key), kind=Kind.COUNT, in_table=more.pop("in_table", False), **more,
    )  # fmt: skip


_INTERVAL = {"places": 4, "source": Source.ROW}

FIGURES: tuple[Figure, ...] = (
    _count(
        "true_words", _("gold words"), "N", header=_("Words"), latex=_("Word count"),
        csv="words", in_table=True, compared=True,
    ),
    _rate("recall", _("recall"), "R", "R", "R", compared=True, csv_per_domain=True),
    _rate("cr", _("interval of recall"), "C_r", "C<sub>r</sub>", "$C_r$", csv="cr",
          csv_per_domain=True, **_INTERVAL),
    _rate("precision", _("precision"), "P", "P", "P", compared=True, csv_per_domain=True),
    _rate("cp", _("interval of precision"), "C_p", "C<sub>p</sub>", "$C_p$", csv="cp",
          csv_per_domain=True, **_INTERVAL),
    _rate("f", _("F"), "F", "F", "F", compared=True, csv_per_domain=True, emphasised=True),
    _rate("oov_rate", _("OOV rate"), _("OOV rate"), "OOV", "OOV", csv="oov_rate",
          compared=True, csv_per_domain=True),
    _rate("oov_recall", _("OOV recall"), "R_oov", "R<sub>oov</sub>", "$R_{oov}$",
          compared=True, csv_per_domain=True),
    _rate("iv_recall", _("IV recall"), "R_iv", "R<sub>iv</sub>", "$R_{iv}$", compared=True),
    # computed after the ranking, from a committee's ratings: empty until there is one
    _rate("f_b", _("balanced F"), "F_b", "F<sub>b</sub>", "$F_b$", source=Source.COMMITTEE,
          compared=True, optional=True),
    # the interval of F, for the plots' error bars
    _rate("cf", _("interval of F"), "C_f", "C<sub>f</sub>", "$C_f$", csv=None, in_table=False,
          **_INTERVAL),
    _count("test_words", _("words of the run"), "N'"),
    _count("correct", _("correct words"), "c"),
    _count("oov_words", _("OOV gold words"), "N_oov"),
    _count("correct_oov", _("correct OOV words"), "c_oov"),
)  # fmt: skip

BY_KEY: Mapping[str, Figure] = {figure.key: figure for figure in FIGURES}

#: The figures each score stores from the library's result (a column of each score model).
LIBRARY_FIGURES = tuple(f for f in FIGURES if f.source is Source.LIBRARY)
#: The figures of a table row that its standing stores beside the score.
ROW_FIGURES = tuple(f for f in FIGURES if f.source is not Source.LIBRARY)
#: The columns of the tables, in order.
TABLE_FIGURES = tuple(f for f in FIGURES if f.in_table)
#: The columns of the development table (a column of ``DevelopmentScore`` each).
DEVELOPMENT_FIGURES = tuple(f for f in TABLE_FIGURES if f.source is not Source.COMMITTEE)


def stored(result: Mapping[str, Any]) -> dict[str, Any]:
    """The values a score model stores in its columns, from the library's ``to_dict()``: the
    counts as ints, the rates as they are (None where undefined)."""
    return {
        f.key: int(result[f.key]) if f.kind is Kind.COUNT else result.get(f.key)
        for f in LIBRARY_FIGURES
    }
