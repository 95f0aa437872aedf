"""A track's table as CSV, JSON (every score with its signature) and LaTeX (booktabs)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from bakeoff.figures import BY_KEY, MISSING, Kind
from bakeoff.models import GoldVersion, Track

from .columns import (
    CSV,
    CSV_HEADER,
    DOMAIN_CSV,
    JSON_ROW_FIGURES,
    NAME,
    RANK,
    RUN,
    SITE,
    TABLE,
    Column,
)
from .domains import shown_domains
from .models import ResultsVersion, TrackRanking
from .post_bakeoff import PostRow
from .rows import Row, insignificant_pairs, pairs_note

_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A cell that no spreadsheet runs as a formula: text beginning with =, +, -, @, a tab or a
    carriage return gets a leading apostrophe (OWASP's advice); numbers pass as they are."""
    if not isinstance(value, str) or not value.startswith(_FORMULA_START):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return "'" + value


def _domain_cells(row: Row | PostRow, domains: Sequence[str]) -> list[Any]:
    stored = {d["domain"]: d for d in row.score.result.get("domains", ())}
    return [
        figure.csv_text(stored[domain].get(figure.key)) if domain in stored else ""
        for domain in domains
        for figure in DOMAIN_CSV
    ]


def _csv_cells(row: Row | PostRow, gold: int | str) -> list[Any]:
    """The row's cells in the order of ``columns.CSV``."""
    post = row if isinstance(row, PostRow) else None
    own: dict[str, Any] = {
        "rank": "" if row.rank is None else row.rank,
        "code": row.code,
        "name": row.name,
        "run": row.run,
        "gold_version": gold,
        "signature": row.score.signature,
        "phase": "post-bakeoff" if post else "official",
        "received_at": post.received_at.isoformat() if post else "",
        "description": getattr(row, "description", ""),
        "paper": getattr(row, "paper", ""),
    }
    return [own[c.key] if c.figure is None else c.figure.csv_text(getattr(row, c.key)) for c in CSV]


def to_csv(
    rows: list[Row],
    ranking: TrackRanking | None,
    domains: Sequence[str] = (),
    post_rows: Sequence[PostRow] = (),
) -> str:
    """The table as CSV; with ``domains`` (the corpus's), the figures of each domain follow,
    empty where a run has none yet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")

    def write(cells: Sequence[object]) -> None:
        writer.writerow([csv_cell(cell) for cell in cells])

    write(CSV_HEADER + tuple(f"{f.csv}[{d}]" for d in domains for f in DOMAIN_CSV))
    gold = ranking.gold_version.number if ranking and ranking.gold_version else ""
    every: list[Row | PostRow] = [*rows, *post_rows]
    for row in every:
        write([*_csv_cells(row, gold), *_domain_cells(row, domains)])
    return out.getvalue()


BOM = "\ufeff"


def for_excel(text: str) -> str:
    """A CSV as Excel opens it right by a double click: a byte-order mark first (without one,
    Excel on a Chinese Windows reads UTF-8 as GBK and garbles every name) and CRLF lines. The
    plain CSV stays without one, for scripts (a BOM would stick to the first column's name)."""
    return BOM + text.replace("\n", "\r\n")


def _json_row(row: Row | PostRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "site": row.code,
        "name": row.name,
        "run": row.standing.run_number if not row.is_reference else None,
        "kind": row.standing.kind if isinstance(row, Row) else "run",
        # the intervals, and the balanced F (docs/measures/balanced-f.md) or None
        **{figure.key: getattr(row, figure.key) for figure in JSON_ROW_FIGURES},
        # the scoring library's result: every figure, raw count, and the signature
        "score": row.score.result,
        "signature_text": row.score.signature,
        # the system: its method and resources (an open track's resource statement), and the
        # site's system-description paper for the track
        "description": getattr(row, "description", ""),
        "paper": getattr(row, "paper", "") or None,
    }


def to_json(
    track: Track,
    rows: list[Row],
    ranking: TrackRanking | None,
    version: ResultsVersion | None = None,
    post_rows: Sequence[PostRow] = (),
) -> str:
    """Every row with its score and signature. The gold is named by its two checksums, each by
    what it is: ``gold_canonical_checksum`` is the one the signatures name and ``python -m
    scoring score`` prints; ``gold_file_sha256`` is ``sha256sum`` of the downloaded gold file."""
    gold = ranking.gold_version if ranking else None
    shown = shown_domains(rows, track.corpus)
    data: dict[str, Any] = {
        "bakeoff": track.corpus.bakeoff.slug,
        "track": track.slug,
        "name": track.name,
        "results_version": version.number if version else None,
        "published_at": version.published_at.isoformat() if version else None,
        "gold_version": gold.number if gold else None,
        "gold_canonical_checksum": _canonical(gold, rows),
        "gold_file_sha256": gold.checksum if gold else None,
        "ranked_at": ranking.computed_at.isoformat() if ranking and ranking.computed_at else None,
        # the domains of the test lines, with their line counts (each row's score has its
        # figures per domain under "domains"), and the checksum of the labels
        "domains": shown[0],
        "domain_labels": shown[1] or None,
        "rows": [_json_row(row) for row in rows],
        "not_significantly_different": [
            [a.label, b.label] for a, b in insignificant_pairs(ranking, rows)
        ],
        "note": pairs_note(ranking, rows),
        # unofficial runs after publication (docs/phases.md): never ranked, scored with the
        # current gold, with the official runs each is not significantly different from
        "post_bakeoff": [
            {
                **_json_row(row),
                "received_at": row.received_at.isoformat(),
                "url": row.url,
                "not_significantly_different_from": row.tied_with,
                # the share of its lines segmented exactly as the gold (None: not counted)
                "lines_as_gold": row.standing.lines_as_gold,
                "near_gold": row.near_gold,
            }
            for row in post_rows
        ],
    }
    return json.dumps(data, ensure_ascii=False)  # no indent: the C encoder, 5x faster


def _canonical(gold: GoldVersion | None, rows: list[Row]) -> str | None:
    if gold is None:
        return None
    if gold.canonical_checksum:
        return gold.canonical_checksum
    for row in rows:  # a gold version stored before the field: its scores' signature
        checksum = (row.score.result or {}).get("signature", {}).get("gold_checksum")
        if checksum:
            return str(checksum)
    return None


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


# Line breaks, tabs and every other control character: a newline would end a comment line or a
# command's argument and let what follows run as LaTeX (\immediate\write18{...}).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def latex_escape(text: str) -> str:
    """Text as LaTeX typesets it, never runs it: one line, its special characters escaped."""
    one_line = _CONTROL.sub(" ", str(text))
    return re.sub(r"[\\&%$#_{}~^]", lambda m: _LATEX[m.group()], one_line)


def latex_url(url: str) -> str:
    """A link as ``\\url{}`` reads it: verbatim (``_``, ``~``, ``&`` stay as they are, where
    ``latex_escape`` would print a backslash), with ``%`` and ``#`` escaped as the url package
    asks inside another command's argument, and what could end the argument or the line (braces,
    backslashes, spaces, control characters) percent-encoded."""
    encoded = re.sub(
        r"[\\{}\s\x00-\x1f\x7f]",
        lambda m: "".join(f"%{byte:02X}" for byte in m.group().encode()),
        str(url),
    )
    return encoded.replace("%", "\\%").replace("#", "\\#")


def _latex_systems(rows: list[Row]) -> list[str]:
    """The runs' system descriptions and papers under the table, one line each."""
    described = [row for row in rows if row.description or row.paper]
    if not described:
        return []
    lines = ["\\par\\smallskip\\footnotesize Systems:"]
    for row in described:
        paper = f" Paper: \\url{{{latex_url(row.paper)}}}." if row.paper else ""
        lines.append(f"\\par {latex_escape(row.label)}: {latex_escape(row.description)}{paper}")
    return lines


def to_latex(
    track: Track,
    rows: list[Row],
    ranking: TrackRanking | None,
    post_rows: Sequence[PostRow] = (),
) -> str:
    """SIGHAN's layout: Site, Word count, R, Cr, P, Cp, F, OOV, R_oov, R_iv, and F_b once a
    committee has rated the corpus (needs booktabs). Post-bakeoff runs follow under their own
    heading, unranked, with their receipt date (docs/phases.md)."""
    every: list[Row | PostRow] = [*rows, *post_rows]
    names = any(row.name for row in every)
    # A column of the tables (``columns.TABLE``); the name where a row has one, an optional
    # figure (F_b until a committee has rated the corpus) where a row has it.
    shown = [
        c
        for c in TABLE
        if (c is not NAME or names)
        and (
            c.figure is None
            or not c.figure.optional
            or any(_value(r, c) is not None for r in every)
        )
    ]
    # The headings that are words follow the reader's language; the symbols stay.
    head = [str(c.latex) for c in shown]
    lines = [
        f"% {latex_escape(track.corpus.bakeoff.name)}: track {latex_escape(track.name)}. "
        "Needs \\usepackage{booktabs}.",
        # Sites' and systems' names are often Chinese: pdflatex stops at the first of them.
        "% Chinese names: compile with XeLaTeX and \\usepackage{xeCJK} (with a CJK font, e.g.",
        "% \\setCJKmainfont{Noto Serif CJK SC}), or the ctexart class.",
        "\\begin{table}[ht]",
        "\\centering",
        "\\caption{"
        + latex_escape(
            _("Scores on the %(track)s track (%(corpus)s, %(condition)s).")
            % {
                "track": track.name,
                "corpus": track.corpus.name,
                "condition": str(track.get_condition_display()).lower(),
            }
        )
        + "}",
        f"\\label{{tab:{latex_escape(track.slug)}}}",
        "\\begin{tabular}{" + " ".join("r" if c.numeric else "l" for c in shown) + "}",
        "\\toprule",
        " & ".join(head) + " \\\\",
        "\\midrule",
    ]
    previous_reference = False
    width = len(head)
    for row in every:
        if row is (post_rows[0] if post_rows else None):
            lines.append("\\midrule")
            lines.append(
                f"\\multicolumn{{{width}}}{{l}}{{\\emph{{Post-bakeoff runs (unofficial, not "
                "ranked; received after publication)}} \\\\"
            )
        elif row.is_reference and not previous_reference:
            lines.append("\\midrule")
        previous_reference = row.is_reference
        rank = "" if row.rank is None else str(row.rank)
        if isinstance(row, PostRow):
            # the day in the bakeoff's zone, as the track page dates it
            rank = f"({row.received_at.astimezone(track.corpus.bakeoff.zone):%Y-%m-%d})"
        own = {
            "rank": rank,
            "code": latex_escape(row.code),
            "name": latex_escape(row.name),
            "run": latex_escape(row.run),
        }
        cells = [own[c.key] if c.figure is None else _latex_figure(row, c) for c in shown]
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    note = pairs_note(ranking, rows)
    if note:
        lines.append(f"\\par\\smallskip\\footnotesize {latex_escape(note)}")
    lines += _latex_systems(rows)
    lines += ["\\end{table}", ""]
    if shown_domains(rows, track.corpus)[0]:
        lines += _latex_domains(track, rows, names)
    return "\n".join(lines)


def _value(row: Row | PostRow, column: Column) -> Any:
    return getattr(row, column.key)


def _latex_figure(row: Row | PostRow, column: Column) -> str:
    assert column.figure is not None
    value = _value(row, column)
    if column.figure.kind is Kind.COUNT and value is not None:
        return f"{value:,}".replace(",", "{,}")
    return column.figure.text(value)


F = BY_KEY["f"]  # the figure of the table by domain in LaTeX


def _latex_domains(track: Track, rows: list[Row], names: bool) -> list[str]:
    """A second table: F of each run on the lines of each domain."""
    domains = [str(d["domain"]) for d in shown_domains(rows, track.corpus)[0]]
    head = [str(c.latex) for c in (RANK, SITE, NAME, RUN) if c is not NAME or names]
    head += [str(F.latex)]
    head += [latex_escape(d) for d in domains]
    lines = [
        "\\begin{table}[ht]",
        "\\centering",
        "\\caption{"
        + latex_escape(_("F per domain on the %(track)s track.") % {"track": track.name})
        + "}",
        f"\\label{{tab:{latex_escape(track.slug)}-domains}}",
        "\\begin{tabular}{r l" + (" l" if names else "") + " r r" + " r" * len(domains) + "}",
        "\\toprule",
        " & ".join(head) + " \\\\",
        "\\midrule",
    ]
    previous_reference = False
    for row in rows:
        if row.is_reference and not previous_reference:
            lines.append("\\midrule")
        previous_reference = row.is_reference
        stored = {d["domain"]: d for d in row.score.result.get("domains", ())}
        cells = ["" if row.rank is None else str(row.rank), latex_escape(row.code)]
        cells += [latex_escape(row.name)] if names else []
        cells += [latex_escape(row.run), F.text(row.score.f)]
        cells += [F.text(stored[d]["f"]) if d in stored else MISSING for d in domains]
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}", ""]
    return lines
