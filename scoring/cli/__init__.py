"""The command line: ``python -m scoring COMMAND ...``.

Bad input ends with one line on stderr that says what is wrong and where, and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.align import compare_gold_to_test
from ..core.dictionary import Dictionary
from ..core.errors import ScoringError
from ..core.gold import GoldIndex, build_gold_index
from ..core.maxmatch import baseline_run, maxmatch, topline_run
from ..core.memory import keep_freed_memory
from ..core.result import Score
from ..core.score import ANY_LINE, ScoredRun, score_run, score_run_details
from ..core.segmentation import Segmentation, parse, parse_utf8
from ..core.table import format_table, rank_scores
from ..core.text import UTF8, decode, test_text_from_gold
from ..core.validate import validate_run
from ..core.version import __version__
from .buckets import add_buckets_command
from .committee import add_committee_command, balanced_from_file
from .files import add_encodings, add_encodings_of, encoding_of, reading

_SHOWN_LINES = 5


def main(argv: Sequence[str] | None = None) -> int:
    keep_freed_memory()
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.command(args))
    except ScoringError as error:
        _error(str(error))
    except OSError as error:
        _error(f"{error.filename or ''}: {error.strerror or error}")
    except KeyboardInterrupt:
        _error("interrupted")
    return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score Chinese word segmentation runs as the SIGHAN bakeoffs did.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    score = commands.add_parser("score", help="score one run against a gold standard")
    _add_dictionary(score)
    score.add_argument("gold", type=Path, help="the gold standard (segmented)")
    score.add_argument("run", type=Path, help="the run to score (segmented, one sentence a line)")
    score.add_argument("--format", choices=("text", "json"), default="text")
    score.add_argument(
        "--difficulty",
        type=Path,
        help="a difficulty file: a committee's (python -m scoring committee), a JSON object "
        '{"difficulty": [...]}, or one number a line, in the gold\'s word order; adds the '
        "balanced precision_b, recall_b and f_b (docs/measures/balanced-f.md)",
    )
    score.add_argument(
        "--domains",
        type=Path,
        metavar="LABELS",
        help="a domain label for each test line, one a line (as multi-domain corpora have): "
        "every figure is also given per domain, with its interval",
    )
    _add_checks(score)
    add_encodings_of(score, (("domains", "the domain labels"),))
    score.set_defaults(command=_score)

    table = commands.add_parser(
        "table",
        help="a ranked table of several runs of one track",
        description="Score several runs against one gold standard and print them ranked by F, "
        "as the SIGHAN tables do: R, P, F with their confidence, OOV and IV recall, the BASE "
        "(maximum matching with the word list) and TOP (with the gold's words) rows, and the "
        "pairs of runs that are not significantly different (docs/track-table.md).",
    )
    _add_dictionary(table)
    table.add_argument("gold", type=Path, help="the gold standard (segmented)")
    table.add_argument(
        "runs", type=Path, nargs="+", help="the runs to rank (segmented), named by their file"
    )
    table.add_argument("--format", choices=("text", "json"), default="text")
    table.add_argument("--no-base", action="store_true", help="leave out the BASE and TOP rows")
    _add_checks(table)
    table.set_defaults(command=_table)

    segment = commands.add_parser("maxmatch", help="segment text by forward maximum matching")
    _add_dictionary(segment, help_text="the word list to match with, one word a line")
    segment.add_argument("text", type=Path, help="the text to segment, one sentence a line")
    add_encodings(segment, (("dict", "the word list"), ("text", "the text")))
    segment.set_defaults(command=_maxmatch)

    check = commands.add_parser(
        "check", help="list the lines where a gold standard and its test text disagree"
    )
    check.add_argument("gold", type=Path, help="the gold standard (segmented)")
    check.add_argument("test", type=Path, help="the test text (one unsegmented sentence a line)")
    add_encodings(check, (("gold", "the gold standard"), ("test", "the test text")))
    check.set_defaults(command=_check)

    validate = commands.add_parser(
        "validate",
        help="check that a run segments the test text",
        description="Check that a run has the test text's lines and, on each, its characters "
        "once the separators are removed; the first line that breaks the rule is named with "
        "its column and both characters (docs/validation.md#run-validation).",
    )
    validate.add_argument("test", type=Path, help="the test text (one unsegmented sentence a line)")
    validate.add_argument("run", type=Path, help="the run to check (segmented)")
    validate.add_argument(
        "--encoding",
        default=UTF8,
        help="encoding of the run: utf-8 (default), gb18030 (reads GB 2312 and GBK) or "
        "big5hkscs (reads Big5)",
    )
    validate.add_argument(
        "--test-encoding",
        default=UTF8,
        metavar="ENCODING",
        help="encoding of the test text (default utf-8, as the platform stores it)",
    )
    validate.set_defaults(command=_validate)

    add_buckets_command(commands)
    add_committee_command(commands)
    return parser


def _add_dictionary(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    parser.add_argument(
        "--dict",
        dest="dictionary",
        type=Path,
        required=True,
        metavar="WORDS",
        help=help_text or "the training word list, one word a line (decides OOV)",
    )


#: The files of ``score`` and ``table``: (option stem, what the file is).
SCORE_FILES = (
    ("gold", "the gold standard"),
    ("run", "the run (or runs)"),
    ("dict", "the word list"),
    ("test", "the test text"),
)


def _add_checks(parser: argparse.ArgumentParser) -> None:
    add_encodings(parser, SCORE_FILES)
    parser.add_argument(
        "--test",
        type=Path,
        help="the test text: runs are then checked against it strictly (docs/validation.md)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="refuse a run whose characters differ from the gold's on some line, instead of "
        "warning and scoring that line by character alignment",
    )


def _read(path: Path, encoding: str, role: str) -> str:
    with reading(path, role):
        return decode(path.read_bytes(), encoding)


def _parse(path: Path, encoding: str, role: str) -> Segmentation:
    with reading(path, role):
        return parse(path.read_bytes(), encoding)


def _prepare(args: argparse.Namespace) -> tuple[GoldIndex, Dictionary]:
    with reading(args.dictionary, "the word list"):
        dictionary = Dictionary.from_word_list(
            args.dictionary.read_bytes(), encoding_of(args, "dict")
        )
    with reading(args.gold, "the gold standard"):
        gold = build_gold_index(
            args.gold.read_bytes(), dictionary, encoding=encoding_of(args, "gold")
        )
    return gold, dictionary


def _score_one(args: argparse.Namespace, gold: GoldIndex, path: Path) -> ScoredRun:
    run = _parse(path, encoding_of(args, "run"), "the run")
    if args.test is not None:
        validate_run(run, _parse(args.test, encoding_of(args, "test"), "the test text"))
    scored = score_run_details(run, gold, aligned_lines=() if args.strict else ANY_LINE)
    if scored.score.aligned_lines:
        _warn_aligned(path, scored.score)
    return scored


def _warn_aligned(path: Path, score: Score) -> None:
    lines = score.aligned_lines
    shown = ", ".join(str(n) for n in lines[:_SHOWN_LINES])
    more = f" and {len(lines) - _SHOWN_LINES} more" if len(lines) > _SHOWN_LINES else ""
    print(
        f"warning: {path}: {len(lines)} line(s) differ in characters from the gold standard "
        f"(lines {shown}{more}); they were scored by character alignment (use --strict to "
        "refuse them)",
        file=sys.stderr,
    )


def _score(args: argparse.Namespace) -> int:
    gold, _ = _prepare(args)
    by_domain = _domain_scorer(args, gold.line_count) if args.domains is not None else None
    scored = _score_one(args, gold, args.run)
    balanced = balanced_from_file(args.difficulty, scored) if args.difficulty else None
    domains = by_domain(scored) if by_domain is not None else None
    if args.format == "json":
        document = {**scored.score.to_dict(), **(balanced or {}), **(domains or {})}
        _write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    else:
        _write(scored.score.summary_text(args.run.name))
        if domains is not None:
            _write(_domains_text(domains))
        if balanced is not None:
            _write(
                f"=== BALANCED PRECISION:\t{balanced['precision_b']:.3f}\n"
                f"=== BALANCED RECALL:\t{balanced['recall_b']:.3f}\n"
                f"=== BALANCED F MEASURE:\t{balanced['f_b']:.3f}\n"
            )
            if balanced["difficulty_provenance"] == "none":
                _write(f"=== DIFFICULTY:\t{balanced['committee']} (no provenance)\n")
    if balanced is not None and balanced["difficulty_provenance"] == "none":
        print(
            f"warning: {args.difficulty}: a difficulty vector without provenance (no committee, "
            "no gold checksum): it was checked against the gold by its length only",
            file=sys.stderr,
        )
    return 0


def _domain_scorer(
    args: argparse.Namespace, line_count: int
) -> Callable[[ScoredRun], dict[str, Any]]:
    """The figures per domain of a scored run, the labels read (and checked) before scoring.
    Imported here: a command that needs no domains loads only the core (a test)."""
    from ..fine.domains import domain_figures, read_domains

    labels = read_domains(
        _read(args.domains, encoding_of(args, "domains"), "the domain labels"), line_count
    )
    return lambda scored: domain_figures(scored, labels)


def _domains_text(document: dict[str, Any]) -> str:
    """The figures per domain as a tab-separated table under the summary block."""
    rows = [
        f"=== DOMAINS:\t{len(document['domains'])} ({document['domain_labels']})",
        "\t".join(
            ("domain", "lines", "N", "N'", "R", "Cr", "P", "Cp", "F", "OOV", "R_oov", "R_iv")
        ),
    ]
    for d in document["domains"]:
        figures = [
            _fixed(d["recall"]),
            _fixed(d["cr"], 4),
            _fixed(d["precision"]),
            _fixed(d["cp"], 4),
            _fixed(d["f"]),
            _fixed(d["oov_rate"]),
            _fixed(d["oov_recall"]),
            _fixed(d["iv_recall"]),
        ]
        counts = [str(d[key]) for key in ("lines", "true_words", "test_words")]
        rows.append("\t".join([d["domain"], *counts, *figures]))
    return "\n".join(rows) + "\n"


def _fixed(value: float | None, places: int = 3) -> str:
    return "--" if value is None else f"{value:.{places}f}"


def _table(args: argparse.Namespace) -> int:
    gold, dictionary = _prepare(args)
    names = _unique_names(args.runs)
    scores = {}
    for name, path in zip(names, args.runs, strict=True):
        try:
            scores[name] = _score_one(args, gold, path).score
        except ScoringError as error:  # several runs: say which
            message = str(error)
            raise ScoringError(
                message if message.startswith(f"{path} ") else f"{path} (a run): {message}"
            ) from None
    baseline = topline = None
    if not args.no_base:
        gold_text = _read(args.gold, encoding_of(args, "gold"), "the gold standard")
        test_text = (
            _read(args.test, encoding_of(args, "test"), "the test text")
            if args.test
            else test_text_from_gold(gold_text)
        )
        # The texts are decoded already (their BOM dropped): parsed as they are, so that a
        # U+FEFF that is a character of the text stays one.
        base = parse_utf8(baseline_run(test_text, dictionary).encode(UTF8))
        top = parse_utf8(topline_run(test_text, gold_text).encode(UTF8))
        baseline = score_run(base, gold, aligned_lines=ANY_LINE)
        topline = score_run(top, gold, aligned_lines=ANY_LINE)
    if args.format == "json":
        rows = [
            {"run": row.name, "rank": row.rank, "cr": row.cr, "cp": row.cp, **row.score.to_dict()}
            for row in rank_scores(scores)
        ]
        extra = {"BASE": baseline, "TOP": topline}
        document = {
            "runs": rows,
            **{k.lower(): v.to_dict() for k, v in extra.items() if v is not None},
        }
        _write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    else:
        _write(format_table(scores, baseline=baseline, topline=topline))
    return 0


def _unique_names(paths: Sequence[Path]) -> list[str]:
    names = [path.name for path in paths]
    if len(set(names)) == len(names):
        return names
    return [str(path) for path in paths]


def _maxmatch(args: argparse.Namespace) -> int:
    with reading(args.dictionary, "the word list"):
        words = Dictionary.from_word_list(
            args.dictionary.read_bytes(), encoding_of(args, "dict")
        ).words
    if not words:
        print(
            f"warning: {args.dictionary}: the word list has no words, so every character "
            "becomes a word of its own",
            file=sys.stderr,
        )
    _write(maxmatch(_read(args.text, encoding_of(args, "text"), "the text"), words))
    return 0


def _check(args: argparse.Namespace) -> int:
    differences = compare_gold_to_test(
        _read(args.gold, encoding_of(args, "gold"), "the gold standard"),
        _read(args.test, encoding_of(args, "test"), "the test text"),
    )
    for difference in differences:
        _write(f"{difference}\n")
    print(f"{len(differences)} line(s) differ", file=sys.stderr)
    return 0


def _validate(args: argparse.Namespace) -> int:
    validate_run(
        _parse(args.run, args.encoding, "the run"),
        _parse(args.test, args.test_encoding, "the test text"),
    )
    print(f"{args.run}: the run matches the test text", file=sys.stderr)
    return 0


def _write(text: str) -> None:
    sys.stdout.buffer.write(text.encode(UTF8))
    sys.stdout.flush()


def _error(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
