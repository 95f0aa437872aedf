"""Speed of the fine-grained evaluation (issue 6): attributes, buckets and the bootstrap.

    .venv/bin/python benchmarks/buckets.py [--data ../shared/data] [--runs 20]

Times, on the msr test set (only a training word list exists, so wLen, sLen and oDen):
* one run: the track's gold attributes and bucket scheme, scoring the run, its attributes, its
  buckets and the 1,000-resample bootstrap interval of every bucket's F;
* 20 runs of the track: the gold attributes once, then every run as above, and the paired
  bootstrap of every pair of adjacent ranks.
Targets: under 2 s for one run, under 10 s for 20 runs. The same is measured on pku with the
training reconstruction (all seven attributes), where the training statistics are computed once
per training corpus and reported apart. Reading files and building the gold index (done once per
gold version) are not timed. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring import build_gold_index, read_dictionary, read_text  # noqa: E402
from scoring.core.score import score_run_details  # noqa: E402
from scoring.fine.attributes import TrainingText, prepare_track  # noqa: E402
from scoring.fine.bootstrap import Resampling, adjacent_bootstrap  # noqa: E402
from scoring.fine.buckets import BucketedGold, analyse_runs  # noqa: E402
from tests.scoring.runs import perturbed_run  # noqa: E402

TARGET_ONE = 2.0
TARGET_MANY = 10.0
SAMPLES = 1000


def runs_of(gold_text: str, test_text: str, count: int) -> list[str]:
    """``count`` perturbed runs, error rates from 2% to 20% (not timed)."""
    return [
        perturbed_run(gold_text, test_text, seed=seed, rate=0.02 + 0.18 * seed / max(count - 1, 1))
        for seed in range(count)
    ]


def measure(
    gold_text: str,
    dictionary_path: Path,
    runs: list[str],
    training: TrainingText | None,
) -> dict[str, float]:
    gold = build_gold_index(gold_text, read_dictionary(dictionary_path))

    start = time.perf_counter()
    track = BucketedGold.prepare(prepare_track(gold, training))
    prepared = time.perf_counter() - start

    start = time.perf_counter()
    scored = score_run_details(runs[0], gold, aligned_lines="any")
    analyse_runs(track, [scored], samples=SAMPLES, seed=0)
    one = prepared + time.perf_counter() - start

    start = time.perf_counter()
    track = BucketedGold.prepare(prepare_track(gold, training))
    scored_runs = [score_run_details(run, gold, aligned_lines="any") for run in runs]
    resampling = Resampling.draw(track.lines, samples=SAMPLES, seed=0)
    analyse_runs(track, scored_runs, resampling=resampling)
    adjacent_bootstrap({f"run{i}": run for i, run in enumerate(scored_runs)}, resampling=resampling)
    many = time.perf_counter() - start
    return {"track": prepared, "one_run": one, "many_runs": many}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="2 runs of msr, 20 resamples, no pku: seconds (the suite runs it; not the targets')",
    )
    args = parser.parse_args()
    if args.smoke:
        global SAMPLES
        SAMPLES, args.runs = 20, 2
    icwb2 = args.data / "icwb2"
    figures: dict[str, object] = {"samples": SAMPLES, "runs": args.runs}

    msr_gold = read_text(icwb2 / "gold" / "msr_test_gold.utf8")
    msr_runs = runs_of(msr_gold, read_text(icwb2 / "testing" / "msr_test.utf8"), args.runs)
    msr = measure(msr_gold, icwb2 / "gold" / "msr_training_words.utf8", msr_runs, None)
    figures["msr"] = msr
    print(f"msr (wLen, sLen, oDen; no training text), {SAMPLES} resamples")
    print(f"  gold attributes and scheme, once per track: {msr['track']:.2f} s")
    print(f"  one run:  {msr['one_run']:.2f} s (target < {TARGET_ONE:.0f} s)")
    print(f"  {args.runs} runs: {msr['many_runs']:.2f} s (target < {TARGET_MANY:.0f} s)")

    reconstruction = args.data / "pku_training_reconstruction" / "pku_training_partial.utf8"
    if reconstruction.is_file() and not args.smoke:
        start = time.perf_counter()
        training = TrainingText.from_segmented(read_text(reconstruction))
        statistics = time.perf_counter() - start
        pku_gold = read_text(icwb2 / "gold" / "pku_test_gold.utf8")
        pku_runs = runs_of(pku_gold, read_text(icwb2 / "testing" / "pku_test.utf8"), args.runs)
        pku = measure(pku_gold, icwb2 / "gold" / "pku_training_words.utf8", pku_runs, training)
        pku["training_statistics"] = statistics
        figures["pku"] = pku
        print(f"pku with the training reconstruction (all seven attributes), {SAMPLES} resamples")
        print(f"  training statistics, once per training corpus: {statistics:.2f} s")
        print(f"  gold attributes and scheme, once per track: {pku['track']:.2f} s")
        print(f"  one run:  {pku['one_run']:.2f} s (target < {TARGET_ONE:.0f} s)")
        print(f"  {args.runs} runs: {pku['many_runs']:.2f} s (target < {TARGET_MANY:.0f} s)")
    figures["targets"] = {"one_run": TARGET_ONE, "many_runs": TARGET_MANY}
    figures["met"] = msr["one_run"] < TARGET_ONE and msr["many_runs"] < TARGET_MANY
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
