"""The ``committee`` command and the ``--difficulty`` option of ``score``
(docs/measures/balanced-f.md).

    python -m scoring committee --train TRAINING_CORPUS --test-gold GOLD -k 16 --seed 1 \\
        -o difficulty.json
    python -m scoring committee --runs RUN [RUN ...] --test-gold GOLD -o difficulty.json

The first trains a CRF committee on a segmented training corpus; the second (for bakeoffs without
training text) takes the runs of the corpus as the members. Either writes a JSON object whose
``difficulty`` lists the gold words' difficulties in corpus order, beside its ``provenance``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.dictionary import EMPTY_DICTIONARY
from ..core.errors import ScoringError
from ..core.gold import build_gold_index
from ..core.score import ANY_LINE, score_run_details
from ..core.segmentation import parse
from ..core.text import UTF8, decode
from .files import reading

if TYPE_CHECKING:
    from ..core.score import ScoredRun

# The psychometric layer is imported when it is used: ``score`` without ``--difficulty`` need not
# pay for it.


def add_committee_command(subparsers: Any) -> None:
    """Add ``committee`` to the subcommands of ``python -m scoring`` (an argparse subparsers)."""
    from ..psychometric.committee import DEFAULT_K, RATIOS
    from ..psychometric.crf import DEFAULT_MAX_ITERATIONS, TEMPLATES

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "committee",
        help="rate the difficulty of every gold word with a committee of segmenters",
        description="Rate every gold word's difficulty with a committee "
        "(docs/measures/balanced-f.md): CRF taggers "
        "trained on samples of a training corpus (--train), or the scored runs of the corpus "
        "(--runs).",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--train", type=Path, help="the training corpus (segmented)")
    source.add_argument(
        "--runs", type=Path, nargs="+", help="scored runs of the corpus as the members"
    )
    parser.add_argument("--test-gold", type=Path, required=True, help="the gold standard")
    parser.add_argument("-k", type=int, default=DEFAULT_K, help="members (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    parser.add_argument(
        "--max-iterations",
        type=int,
        default=DEFAULT_MAX_ITERATIONS,
        help="L-BFGS iterations of each CRF (default %(default)s)",
    )
    parser.add_argument(
        "--templates",
        nargs="+",
        choices=TEMPLATES,
        default=list(TEMPLATES),
        help="feature templates to draw from",
    )
    parser.add_argument(
        "--ratios",
        nargs="+",
        type=float,
        default=list(RATIOS),
        help="training sample ratios to draw from",
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="parallel processes (default: one per CPU)"
    )
    parser.add_argument("--encoding", default=UTF8, help="encoding of the input files")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the JSON file to write")
    parser.set_defaults(command=_committee)


def _committee(args: argparse.Namespace) -> int:
    from ..psychometric.committee import build_committee, committee_from_runs, training_sentences

    with reading(args.test_gold, "the gold standard"):
        gold = build_gold_index(
            args.test_gold.read_bytes(), EMPTY_DICTIONARY, encoding=args.encoding
        )
    if args.runs:
        runs: dict[str, ScoredRun] = {}
        for path in args.runs:
            with reading(path, "a run"):
                run = parse(path.read_bytes(), args.encoding)
            runs[str(path)] = score_run_details(run, gold, aligned_lines=ANY_LINE)
        committee = committee_from_runs(runs)
    else:
        with reading(args.train, "the training corpus"):
            training = training_sentences(decode(args.train.read_bytes(), args.encoding))

        def progress(done: int, total: int) -> None:
            print(f"committee: {done}/{total} members trained", file=sys.stderr)

        committee = build_committee(
            training,
            gold,
            k=args.k,
            seed=args.seed,
            templates=args.templates,
            ratios=args.ratios,
            max_iterations=args.max_iterations,
            max_workers=args.workers,
            progress=progress,
        )
    committee.save(args.output)
    print(f"{args.output}: {committee.signature}", file=sys.stderr)
    return 0


def balanced_from_file(path: str | Path, scored_run: ScoredRun) -> dict[str, Any]:
    """``precision_b``, ``recall_b``, ``f_b`` (and the sums and profile behind them) of a scored
    run, with the difficulties of a file (docs/measures/balanced-f.md#command-line-and-files):
    a committee's, refused when made for another gold, or a vector without provenance, which the
    result says (``difficulty_provenance``) and which is checked by its length only."""
    from ..psychometric.balanced import balanced_score
    from ..psychometric.difficulty import read_difficulty

    vector = read_difficulty(path)
    if vector.committee is not None and vector.committee.gold_checksum != scored_run.gold.checksum:
        raise ScoringError(
            f"{path}: the committee rated another gold standard "
            f"({vector.committee.gold_checksum}, not {scored_run.gold.checksum})"
        )
    try:
        result = balanced_score(scored_run, vector.difficulty, committee=vector.signature)
    except ScoringError as error:
        raise ScoringError(f"{path}: {error}") from None
    return {
        **result.to_dict(),
        "difficulty_provenance": "committee" if vector.has_provenance else "none",
    }
