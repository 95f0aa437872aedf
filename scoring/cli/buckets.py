"""``python -m scoring buckets``: attribute buckets, diagnosis and the paired bootstrap
(docs/measures/buckets.md).

``buckets --train TRAINING --dict WORDS GOLD RUN [RUN2] [--format text|json]`` prints every
attribute's buckets for RUN, its self-diagnosis and, with RUN2, the same for RUN2, the aided
diagnosis of the better run against the other and the paired bootstrap probability. Without
``--train`` the attributes that need the training corpus as running text are reported as
unavailable.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.dictionary import Dictionary
from ..core.errors import ScoringError
from ..core.gold import GoldIndex, build_gold_index
from ..core.score import ANY_LINE, ScoredRun, score_run_details
from ..core.segmentation import Segmentation, parse
from ..core.text import UTF8, decode
from ..fine.bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED
from .files import add_encodings, encoding_of, reading

if TYPE_CHECKING:
    from ..fine.attributes import TrainingText
    from ..fine.buckets import RunBuckets

DESCRIPTION = """\
Print the F of RUN in every bucket of every word attribute (docs/measures/buckets.md), with
bootstrap intervals, and its self-diagnosis (its worst bucket of each attribute). With RUN2, the
same for RUN2, the aided diagnosis of the better run against the other and their paired
bootstrap. Without --train, the four attributes that need the training corpus as running text
(wFre, cFre, wCon, cCon) are reported as unavailable. With --scheme interpreteval, the buckets
follow InterpretEval's conventions (cFre and cCon then count characters, not words).
"""

# The rest of the fine-grained layer is imported when the command runs: ``score`` need not pay.


def add_buckets_command(subparsers: Any) -> None:
    """Register the ``buckets`` subcommand on an ``add_subparsers()`` object.

    The command is stored as ``args.command``, a function of the parsed arguments that returns the
    exit status and raises ScoringError on bad input (as the other subcommands do).
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "buckets",
        help="F per attribute bucket, self-diagnosis, and with a second run aided diagnosis",
        description=DESCRIPTION,
    )
    parser.add_argument(
        "--train",
        type=Path,
        metavar="TRAINING",
        help="the segmented training corpus (for wFre, cFre, wCon, cCon); without it those "
        "attributes are reported as unavailable",
    )
    parser.add_argument(
        "--dict",
        dest="dictionary",
        type=Path,
        required=True,
        metavar="WORDS",
        help="the training word list, one word a line (decides OOV, hence oDen)",
    )
    parser.add_argument("gold", type=Path, help="the gold standard (segmented)")
    parser.add_argument("run", type=Path, help="the run to analyse (segmented)")
    parser.add_argument("run2", type=Path, nargs="?", help="a second run, to compare with")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"bootstrap resamples (default {DEFAULT_SAMPLES})",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"bootstrap seed (default {DEFAULT_SEED})"
    )
    parser.add_argument(
        "--scheme",
        choices=("default", "interpreteval"),
        default="default",
        help="the bucket scheme: the project's own (default), or InterpretEval's conventions, "
        "whose buckets line up with the RethinkCWS tables (docs/measures/buckets.md)",
    )
    parser.add_argument(
        "--domains",
        type=Path,
        metavar="LABELS",
        help="a domain label for each test line, one a line: word scores are also given per domain",
    )
    add_encodings(
        parser,
        (
            ("gold", "the gold standard"),
            ("run", "the runs"),
            ("dict", "the word list"),
            ("train", "the training corpus"),
        ),
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="refuse a run whose characters differ from the gold's on some line",
    )
    parser.set_defaults(command=run_buckets_command)


def run_buckets_command(args: argparse.Namespace) -> int:
    from ..fine.attributes import TrainingText

    if args.samples < 1:
        raise ScoringError("--samples must be at least 1")
    with reading(args.dictionary, "the word list"):
        dictionary = Dictionary.from_word_list(
            args.dictionary.read_bytes(), encoding_of(args, "dict")
        )
    with reading(args.gold, "the gold standard"):
        index = build_gold_index(
            args.gold.read_bytes(), dictionary, encoding=encoding_of(args, "gold")
        )
    training = None
    if args.train is not None:
        with reading(args.train, "the training corpus"):
            training = TrainingText.from_segmented(
                args.train.read_bytes(), encoding_of(args, "train")
            )
    runs = {}
    for path in (args.run, args.run2):
        if path is not None:
            with reading(path, "the run"):
                runs[_name(path, args)] = parse(path.read_bytes(), encoding_of(args, "run"))
    domains = None
    if args.domains is not None:
        with reading(args.domains, "the domain labels"):
            domains = decode(args.domains.read_bytes(), args.encoding)
    document = buckets_report(
        index=index,
        training=training,
        runs=runs,
        scheme=args.scheme,
        dictionary=dictionary,
        samples=args.samples,
        seed=args.seed,
        strict=args.strict,
        domains=domains,
    )
    if args.format == "json":
        _write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    else:
        _write(format_report(document))
    return 0


def _name(path: Path, args: argparse.Namespace) -> str:
    if args.run2 is not None and args.run.name == args.run2.name:
        return str(path)
    return path.name


def buckets_report(
    *,
    index: GoldIndex,
    training: TrainingText | None,
    runs: Mapping[str, Segmentation],
    scheme: str = "default",
    dictionary: Dictionary | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    strict: bool = False,
    domains: str | None = None,
) -> dict[str, Any]:
    """The JSON document of the ``buckets`` command, for one or two runs; ``dictionary`` (the
    training word list) is needed by the interpreteval scheme."""
    from ..fine.attributes import prepare_track
    from ..fine.bootstrap import Resampling, paired_bootstrap
    from ..fine.buckets import BucketedGold, analyse_runs
    from ..fine.diagnosis import aided_diagnosis
    from ..fine.domains import domain_scores, read_domains

    if not 1 <= len(runs) <= 2:
        raise ValueError("give one or two runs")
    attributes = prepare_track(index, training, scheme=scheme, dictionary=dictionary)
    track = BucketedGold.prepare(attributes)
    scored: dict[str, ScoredRun] = {}
    for name, run in runs.items():
        details = score_run_details(run, index, aligned_lines=() if strict else ANY_LINE)
        if details.score.aligned_lines:
            aligned = details.score.aligned_lines
            shown = ", ".join(str(n) for n in aligned[:5]) + (", ..." if len(aligned) > 5 else "")
            print(
                f"warning: {name}: {len(aligned)} line(s) differ in characters from the gold "
                f"standard (lines {shown}); they were scored by character alignment",
                file=sys.stderr,
            )
        scored[name] = details
    resampling = Resampling.draw(track.lines, samples=samples, seed=seed)
    analyses = dict(
        zip(scored, analyse_runs(track, list(scored.values()), resampling=resampling), strict=True)
    )
    names = list(scored)
    document: dict[str, Any] = {
        "run": names[0],
        **_run_document(analyses[names[0]]),
        "scheme": track.scheme.to_dict(),
    }
    labels = read_domains(domains, index.line_count) if domains is not None else None
    if labels is not None:
        document["domains"] = [d.to_dict() for d in domain_scores(scored[names[0]], labels)]
    if len(names) == 2:
        second = analyses[names[1]]
        document["run2"] = {"run": names[1], **_run_document(second)}
        if labels is not None:
            document["run2"]["domains"] = [
                d.to_dict() for d in domain_scores(scored[names[1]], labels)
            ]
        bootstrap = paired_bootstrap(
            scored[names[0]],
            scored[names[1]],
            names=(names[0], names[1]),
            resampling=resampling,
        )
        better, worse = bootstrap.upper, bootstrap.lower
        document["aided_diagnosis"] = {
            "a": better,
            "b": worse,
            "attributes": {
                d.attribute: d.to_dict() for d in aided_diagnosis(analyses[better], analyses[worse])
            },
        }
        document["bootstrap"] = bootstrap.to_dict()
    return document


def _run_document(analysis: RunBuckets) -> dict[str, Any]:
    from ..fine.diagnosis import self_diagnosis

    data = analysis.to_dict()
    data["self_diagnosis"] = {d.attribute: d.to_dict() for d in self_diagnosis(analysis)}
    return data


# -- text ------------------------------------------------------------------------------------------


def format_report(document: dict[str, Any]) -> str:
    """The ``buckets`` document as text: a table per attribute, then the diagnoses."""
    units = {a["attribute"]: a.get("unit", "word") for a in document["scheme"]["attributes"]}
    out = [f"Bucket scheme: {document['scheme']['name']}\n", _format_run(document, units)]
    if "run2" in document:
        out.append(_format_run(document["run2"], units))
        aided = document["aided_diagnosis"]
        out.append(f"Aided diagnosis of {aided['a']} (A) against {aided['b']} (B)")
        for attribute, d in aided["attributes"].items():
            who = "B beats A" if d["b_better"] else "A beats B (B beats A nowhere)"
            out.append(
                f"  {attribute:5} {d['bucket']:28} {who} by {abs(d['difference']):.3f}"
                f" (A {d['a_f']:.3f}, B {d['b_f']:.3f})"
            )
        b = document["bootstrap"]
        out.append(
            f"\nPaired bootstrap ({b['samples']} resamples of sentences, seed {b['seed']}): "
            f"P({b['lower']} not below {b['upper']}) = {b['probability']:.3f}\n"
        )
    return "\n".join(out)


def _format_run(run: dict[str, Any], units: dict[str, str]) -> str:
    from ..fine.schemes import ATTRIBUTES

    score = run["score"]
    lines = [
        f"Run {run['run']}: F {score['f']:.3f}, P {score['precision']:.3f}, "
        f"R {score['recall']:.3f}, N {score['true_words']}, N' {score['test_words']}",
        "",
    ]
    header = (
        f"  {'bucket':28} {'gold':>7} {'run':>7} {'correct':>7} "
        f"{'P':>6} {'R':>6} {'F':>6}  F 95% interval"
    )
    for name in ATTRIBUTES:
        buckets = run["attributes"][name]
        if buckets is None:
            lines.append(f"{name}: unavailable ({run['unavailable'][name]})")
            continue
        statistics = run["statistics"][name]
        counted = " (buckets of characters)" if units.get(name) == "character" else ""
        lines.append(
            f"{name}: S^rho {_fixed(statistics['spearman'])}, S^sigma {_fixed(statistics['std'])}"
            f"{counted}"
        )
        lines.append(header)
        for b in buckets:
            interval = b["f_interval"]
            shown = f"[{interval[0]:.3f}, {interval[1]:.3f}]" if interval else "--"
            lines.append(
                f"  {b['label']:28} {b['gold_words']:>7} {b['run_words']:>7} "
                f"{b['correct_gold']:>7} {_fixed(b['precision']):>6} {_fixed(b['recall']):>6} "
                f"{_fixed(b['f']):>6}  {shown}"
            )
    lines.append("Self-diagnosis (worst bucket, gap to the best)")
    for attribute, d in run["self_diagnosis"].items():
        lines.append(
            f"  {attribute:5} {d['worst']:28} F {d['worst_f']:.3f}, "
            f"{d['gap']:.3f} below {d['best']} ({d['best_f']:.3f})"
        )
    if "domains" in run:
        lines.append("Domains")
        for d in run["domains"]:
            lines.append(
                f"  {d['domain']:20} lines {d['lines']:>6} N {d['true_words']:>8} "
                f"P {d['precision']:.3f} R {d['recall']:.3f} F {d['f']:.3f}"
            )
    return "\n".join(lines) + "\n"


def _fixed(value: float | None) -> str:
    return "--" if value is None else f"{value:.3f}"


def _write(text: str) -> None:
    sys.stdout.buffer.write(text.encode(UTF8))
    sys.stdout.flush()
