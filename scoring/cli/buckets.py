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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.dictionary import Dictionary
from ..core.errors import ScoringError
from ..core.gold import build_gold_index
from ..core.score import ANY_LINE, ScoredRun, score_run_details
from ..core.segmentation import parse
from ..core.text import UTF8, decode
from ..fine.bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED

if TYPE_CHECKING:
    from ..fine.buckets import RunBuckets

# The rest of the fine-grained layer is imported when the command runs: ``score`` need not pay.


def add_buckets_command(subparsers: Any) -> None:
    """Register the ``buckets`` subcommand on an ``add_subparsers()`` object.

    The command is stored as ``args.command``, a function of the parsed arguments that returns the
    exit status and raises ScoringError on bad input (as the other subcommands do).
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "buckets",
        help="F per attribute bucket, self-diagnosis, and with a second run aided diagnosis",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
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
        "--domains",
        type=Path,
        metavar="LABELS",
        help="a domain label for each test line, one a line: word scores are also given per domain",
    )
    parser.add_argument("--encoding", default=UTF8, help="encoding of the input files")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="refuse a run whose characters differ from the gold's on some line",
    )
    parser.set_defaults(command=run_buckets_command)


def run_buckets_command(args: argparse.Namespace) -> int:
    if args.samples < 1:
        raise ScoringError("--samples must be at least 1")
    document = buckets_report(
        gold=_read(args.gold, args.encoding),
        dictionary=_read(args.dictionary, args.encoding),
        training=_read(args.train, args.encoding) if args.train else None,
        runs={
            _name(path, args): path.read_bytes()
            for path in (args.run, args.run2)
            if path is not None
        },
        encoding=args.encoding,
        samples=args.samples,
        seed=args.seed,
        strict=args.strict,
        domains=_read(args.domains, args.encoding) if args.domains else None,
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
    gold: str,
    dictionary: str,
    training: str | None,
    runs: dict[str, bytes],
    encoding: str = UTF8,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    strict: bool = False,
    domains: str | None = None,
) -> dict[str, Any]:
    """The JSON document of the ``buckets`` command, for one or two runs given as bytes."""
    from ..fine.attributes import TrainingText, prepare_track
    from ..fine.bootstrap import Resampling, paired_bootstrap
    from ..fine.buckets import BucketedGold, analyse_runs
    from ..fine.diagnosis import aided_diagnosis
    from ..fine.domains import domain_scores, read_domains

    if not 1 <= len(runs) <= 2:
        raise ValueError("give one or two runs")
    index = build_gold_index(gold, Dictionary.from_word_list(dictionary))
    attributes = prepare_track(
        index, TrainingText.from_segmented(training) if training is not None else None
    )
    track = BucketedGold.prepare(attributes)
    scored: dict[str, ScoredRun] = {}
    for name, data in runs.items():
        details = score_run_details(
            parse(data, encoding), index, aligned_lines=() if strict else ANY_LINE
        )
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
    out = [_format_run(document)]
    if "run2" in document:
        out.append(_format_run(document["run2"]))
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


def _format_run(run: dict[str, Any]) -> str:
    from ..fine.attributes import ATTRIBUTES

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
        lines.append(
            f"{name}: S^rho {_fixed(statistics['spearman'])}, S^sigma {_fixed(statistics['std'])}"
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


def _read(path: Path, encoding: str) -> str:
    return decode(path.read_bytes(), encoding)


def _write(text: str) -> None:
    sys.stdout.buffer.write(text.encode(UTF8))
    sys.stdout.flush()
