"""How long the psychometric scores of docs/measures/balanced-f.md take (issue 5; run by hand, not a
test).

    .venv/bin/python benchmarks/committee.py [--k 16] [--workers 2] [--max-iterations 100]
    .venv/bin/python benchmarks/committee.py --skip-committee      # the balanced-F timing only

1. Building a committee (default 16 CRF members, the library's default settings) on the PKU training
   reconstruction (../shared/data/pku_training_reconstruction) and rating the pku test gold: wall
   time with ``--workers`` processes, and the CPU time of this process and its children.
2. Scoring one run's balanced P, R, F given the difficulties, on the msr test set: the BASE run
   (forward maximum matching with the msr training words; it differs from the msr gold on 16 lines,
   so the character alignment of run words to gold words is timed too), with the difficulty vector
   of a committee of two runs (BASE and TOP: msr has no training text). Timed alone (target under
   0.2 s), and from the difficulty file (reading the JSON included).

The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import scoring  # noqa: E402
from scoring.cli.committee import balanced_from_file  # noqa: E402
from scoring.core.score import score_run_details  # noqa: E402
from scoring.psychometric.balanced import balanced_score  # noqa: E402
from scoring.psychometric.committee import build_committee, committee_from_runs, training_sentences  # noqa: E402

DATA = REPO.parent / "shared" / "data"
PKU_TRAINING = DATA / "pku_training_reconstruction" / "pku_training_partial.utf8"
PKU_GOLD = DATA / "icwb2" / "gold" / "pku_test_gold.utf8"
MSR_GOLD = DATA / "icwb2" / "gold" / "msr_test_gold.utf8"
MSR_WORDS = DATA / "icwb2" / "gold" / "msr_training_words.utf8"
MSR_TEST = DATA / "icwb2" / "testing" / "msr_test.utf8"

TARGET_BALANCED_S = 0.2


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_s(work: Callable[[], object], repeat: int) -> float:
    work()  # warm up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def time_committee(
    k: int, workers: int, max_iterations: int, output: Path | None, sentences: int | None = None
) -> dict[str, float]:
    training = training_sentences(scoring.read_text(PKU_TRAINING))[:sentences]
    gold = scoring.build_gold_index(scoring.read_text(PKU_GOLD), scoring.Dictionary.from_words(()))
    wall, cpu = time.perf_counter(), time.process_time() + children_cpu()

    def progress(done: int, total: int) -> None:
        print(f"  {done}/{total} members after {time.perf_counter() - wall:.0f} s", flush=True)

    committee = build_committee(
        training,
        gold,
        k=k,
        seed=1,
        max_iterations=max_iterations,
        max_workers=workers,
        progress=progress,
    )
    wall = time.perf_counter() - wall
    cpu = time.process_time() + children_cpu() - cpu
    if output is not None:
        committee.save(output)
    for member in committee.members:
        print(
            f"  {member.name}: {member.template} {member.ratio:.0%} "
            f"({member.training_sentences} sentences, seed {member.seed}) F = {member.f:.4f}"
        )
    print(f"committee of {k} on {len(training)} PKU sentences, {workers} processes: ", end="")
    print(f"{wall:.1f} s wall, {cpu:.1f} s CPU ({committee.signature})")
    return {"committee_wall_s": round(wall, 1), "committee_cpu_s": round(cpu, 1)}


def time_balanced(repeat: int) -> dict[str, float]:
    dictionary = scoring.read_dictionary(MSR_WORDS)
    gold_text = scoring.read_text(MSR_GOLD)
    gold = scoring.build_gold_index(gold_text, dictionary)
    test_text = scoring.read_text(MSR_TEST)
    base = score_run_details(scoring.baseline_run(test_text, dictionary), gold, aligned_lines="any")
    top = score_run_details(scoring.topline_run(test_text, gold_text), gold, aligned_lines="any")
    committee = committee_from_runs({"BASE": base, "TOP": top})
    difficulty = committee.difficulty
    seconds = median_s(lambda: balanced_score(base, difficulty), repeat)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "difficulty.json"
        committee.save(path)
        file_seconds = median_s(lambda: balanced_from_file(path, base), repeat)
    status = "ok" if seconds < TARGET_BALANCED_S else "MISSED"
    print(
        f"balanced F of the msr BASE run ({gold.true_words} gold words, "
        f"{len(base.score.aligned_lines)} aligned lines): {seconds * 1000:.1f} ms "
        f"(target < {TARGET_BALANCED_S * 1000:.0f} ms: {status}); with the JSON file read: "
        f"{file_seconds * 1000:.1f} ms"
    )
    return {
        "msr_balanced_ms": round(seconds * 1000, 1),
        "msr_balanced_from_file_ms": round(file_seconds * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--max-iterations", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--skip-committee", action="store_true")
    parser.add_argument("--save", type=Path, help="write the PKU committee's difficulty file here")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a committee of 2 on 300 sentences, 3 iterations, each timing once: seconds (the "
        "suite runs it; not the targets')",
    )
    args = parser.parse_args()
    sentences = None
    if args.smoke:
        args.k, args.workers, args.max_iterations, args.repeat, sentences = 2, 1, 3, 1, 300
    figures = time_balanced(args.repeat)
    if not args.skip_committee:
        figures |= time_committee(args.k, args.workers, args.max_iterations, args.save, sentences)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
