"""A SIGHAN-style ranked table of several runs of one track (docs/track-table.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .result import Score
from .significance import insignificant_pairs, precision_interval, recall_interval


@dataclass(frozen=True)
class RankedRow:
    """A row of a track's table; ``rank`` is None for the BASE and TOP rows, never ranked."""

    name: str
    rank: int | None
    score: Score
    cr: float
    cp: float


def row_for(name: str, score: Score, rank: int | None) -> RankedRow:
    return RankedRow(
        name=name,
        rank=rank,
        score=score,
        cr=recall_interval(score).half_width,
        cp=precision_interval(score).half_width,
    )


def rank_scores(scores: Mapping[str, Score]) -> list[RankedRow]:
    """Rows sorted by F, best first; equal F shares a rank (1, 2, 2, 4).

    >>> from scoring import Score, Signature
    >>> def score(correct):
    ...     return Score(1000, 1000, correct, 0, 0, 0, 0, 0, Signature("1", "g", "d"))
    >>> rows = rank_scores({"a": score(900), "b": score(950), "c": score(950)})
    >>> [(row.rank, row.name, round(row.cr, 4)) for row in rows]
    [(1, 'b', 0.0138), (1, 'c', 0.0138), (3, 'a', 0.019)]
    """
    ordered = sorted(scores.items(), key=lambda item: (-item[1].exact_f, item[0]))
    rows: list[RankedRow] = []
    for position, (name, score) in enumerate(ordered, 1):
        tied = rows and rows[-1].score.exact_f == score.exact_f
        rank = rows[-1].rank if tied and rows[-1].rank is not None else position
        rows.append(row_for(name, score, rank))
    return rows


def format_table(
    scores: Mapping[str, Score],
    *,
    baseline: Score | None = None,
    topline: Score | None = None,
) -> str:
    """The table as text: ranked runs, then BASE and TOP, then the pairs that are not
    significantly different.

    >>> from scoring import Score, Signature
    >>> def score(correct):
    ...     return Score(1000, 1000, correct, 0, 0, 0, 0, 0, Signature("1", "g", "d"))
    >>> print(format_table({"a": score(900), "b": score(950)}), end="")
    Rank  Run  Words      R      Cr      P      Cp      F    OOV  Roov    Riv
       1  b     1000  0.950  0.0138  0.950  0.0138  0.950  0.000    --  0.950
       2  a     1000  0.900  0.0190  0.900  0.0190  0.900  0.000    --  0.900
    <BLANKLINE>
    All systems are significantly different from each other.
    """
    rows = rank_scores(scores)
    extra = [row_for(name, s, None) for name, s in (("BASE", baseline), ("TOP", topline)) if s]
    header = ("Rank", "Run", "Words", "R", "Cr", "P", "Cp", "F", "OOV", "Roov", "Riv")
    lines = [header]
    for row in rows + extra:
        s = row.score
        lines.append(
            (
                "" if row.rank is None else str(row.rank),
                row.name,
                str(s.true_words),
                f"{s.recall:.3f}",
                f"{row.cr:.4f}",
                f"{s.precision:.3f}",
                f"{row.cp:.4f}",
                f"{s.f:.3f}",
                f"{s.oov_rate:.3f}",
                _fixed3(s.oov_recall),
                _fixed3(s.iv_recall),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = [
        "  ".join(
            cell.ljust(w) if i == 1 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    ]
    pairs = insignificant_pairs({row.name: row.score for row in rows})
    if len(rows) < 2:
        text.append("")
    elif pairs:
        listed = ", ".join(f"{a} and {b}" for a, b in pairs)
        text.append(f"\nAll systems are significantly different from each other except: {listed}.")
    else:
        text.append("\nAll systems are significantly different from each other.")
    return "\n".join(text) + "\n"


def _fixed3(value: float | None) -> str:
    return "--" if value is None else f"{value:.3f}"
