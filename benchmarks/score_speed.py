"""How fast the scoring library is, against the targets of issue 2 (run by hand, not a test).

    .venv/bin/python benchmarks/score_speed.py [--repeat 9] [--skip-perl]

Measures, on the msr corpus of SIGHAN 2005 (../shared/data/icwb2) and a realistic run (the BASE run,
forward maximum matching of the msr test text with the training words):

1. from reading the three files (training words, gold, run) to the full result of
   docs/measures/scoring.md;
2. one run against a prepared gold index (reading the run file included);
3. the same against a 100x concatenation of the msr gold and run (about 10.7 million gold words),
   in a fresh subprocess that loads the saved index and scores the run: gold words per second, and
   that process's peak resident memory over the size of the two input files;
4. ``perl scripts/score`` on the 1x files, and how many times faster (1) is;
5. character alignment (issue 14): one line of 16,000 characters, msr gold words run together,
   against a run of it with 2 characters replaced (the first near its start, the last near its
   end, so that nearly the whole line lies between them), and one of 100,000 characters with 10
   replaced: the time to score the line (docs/validation.md#aligned-lines) and the peak of the
   memory Python allocates meanwhile (tracemalloc).

Figures in milliseconds are medians of ``--repeat`` repetitions (with the CPU time beside them),
the 100x figures medians of 3 fresh subprocesses. The last line printed is one JSON object with
the keys msr_files_ms, msr_index_ms, x100_words_per_s, x100_peak_rss_ratio, perl_ratio,
align_16k_ms, align_16k_peak_mb and align_100k_ms. ``--alignment`` runs (5) only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import scoring  # noqa: E402

try:
    from scoring.core.memory import keep_freed_memory
except ImportError:  # an older library: glibc's defaults

    def keep_freed_memory(*, keep: int = 1 << 30, pad: int = 64 << 20) -> bool:
        return False


ICWB2 = REPO.parent / "shared" / "data" / "icwb2"
GOLD = ICWB2 / "gold" / "msr_test_gold.utf8"
WORDS = ICWB2 / "gold" / "msr_training_words.utf8"
TEST = ICWB2 / "testing" / "msr_test.utf8"
SCORE_SCRIPT = ICWB2 / "scripts" / "score"
COPIES = 100
X100_REPEAT = 3

TARGET_FILES_MS = 60.0
TARGET_INDEX_MS = 15.0
TARGET_WORDS_PER_S = 5e6
TARGET_RSS_RATIO = 4.0
TARGET_PERL_RATIO = 200.0
TARGET_ALIGN_16K_MS = 50.0
TARGET_ALIGN_16K_MB = 50.0
TARGET_ALIGN_100K_MS = 500.0


def median_ms(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time of this process, in milliseconds.

    The targets are wall times; the CPU time shows how much of it other processes took."""
    work()  # warm up: imports, page cache, allocator
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def score_files(words: Path, gold: Path, run: Path) -> scoring.Score:
    """The full result from the three files, as ``python -m scoring score`` computes it."""
    dictionary = scoring.read_dictionary(words)  # as the command line reads it: bytes, checked once
    index = scoring.build_gold_index(gold.read_bytes(), dictionary)
    return scoring.score_run(run.read_bytes(), index, aligned_lines="any")


def peak_rss_bytes() -> int:
    """This process's peak resident set size (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def worker(index_path: Path, run_path: Path) -> None:
    """Subprocess: load a saved gold index, score the run file once, report as JSON."""
    index = scoring.GoldIndex.load(index_path)
    wall, cpu = time.perf_counter(), time.process_time()
    score = scoring.score_run(run_path.read_bytes(), index, aligned_lines="any")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        json.dumps(
            {
                "seconds": wall,
                "cpu_seconds": cpu,
                "true_words": score.true_words,
                "f": score.f,
                "peak_rss": peak_rss_bytes(),
            }
        )
    )


def build_index(gold_path: Path, words_path: Path, index_path: Path) -> None:
    """Subprocess: prepare the gold index of a gold file and save it."""
    started = time.perf_counter()
    dictionary = scoring.read_dictionary(words_path)
    scoring.build_gold_index(gold_path.read_bytes(), dictionary).save(index_path)
    print(json.dumps({"seconds": time.perf_counter() - started, "peak_rss": peak_rss_bytes()}))


def run_json(*args: str) -> dict[str, float]:
    completed = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def differing_line(characters: int, differences: int) -> tuple[list[str], list[str]]:
    """msr gold words run together into one line of about ``characters`` characters, and the
    same words with ``differences`` characters replaced, spread from near the start to near the
    end of the line."""
    gold: list[str] = []
    length = 0
    for word in GOLD.read_text(encoding="utf-8").split():
        if length >= characters:
            break
        gold.append(word)
        length += len(word)
    chars = list("".join(gold))
    span = len(chars) - 200
    for k in range(differences):
        place = 100 + span * k // max(differences - 1, 1)
        chars[place] = "Ｙ" if chars[place] == "Ｘ" else "Ｘ"
    run, start = [], 0
    for word in gold:
        run.append("".join(chars[start : start + len(word)]))
        start += len(word)
    return gold, run


def alignment(repeat: int) -> dict[str, float]:
    """(5): the time and memory of scoring one long line by character alignment."""
    import tracemalloc

    from scoring.core.align import score_aligned_line

    figures = {}
    for characters, differences, key in ((16_000, 2, "16k"), (100_000, 10, "100k")):
        gold, run = differing_line(characters, differences)
        line = score_aligned_line(gold, run)
        ms, cpu = median_ms(partial(score_aligned_line, gold, run), repeat)
        tracemalloc.start()
        score_aligned_line(gold, run)
        peak_mb = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        target = TARGET_ALIGN_16K_MS if key == "16k" else TARGET_ALIGN_100K_MS
        memory = f", peak {peak_mb:.1f} MB"
        if key == "16k":
            memory += f" (target < {TARGET_ALIGN_16K_MB:.0f} MB) "
            memory += verdict(peak_mb < TARGET_ALIGN_16K_MB)
        print(
            f"aligned line of {characters:,} characters, {differences} replaced: {ms:.1f} ms "
            f"(target < {target:.0f} ms) {verdict(ms < target)}{memory}  [CPU {cpu:.1f} ms; "
            f"{line.correct:,} of {len(gold):,} gold words correct]"
        )
        figures[f"align_{key}_ms"] = round(ms, 2)
        if key == "16k":
            figures["align_16k_peak_mb"] = round(peak_mb, 2)
    return figures


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=9, help="repetitions of each timing")
    parser.add_argument("--skip-perl", action="store_true", help="do not run the Perl scorer")
    parser.add_argument(
        "--alignment", action="store_true", help="only (5), the alignment of long lines"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="every step once, on 2 copies instead of 100, without Perl: seconds (the suite "
        "runs it; its figures are not comparable with the targets)",
    )
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--build-index", nargs=3, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.smoke:
        global COPIES, X100_REPEAT
        COPIES, X100_REPEAT = 2, 1
        args.repeat, args.skip_perl = 1, True
    # As the command line and the Celery workers do: glibc keeps freed memory for the next run.
    kept = keep_freed_memory()
    if args.worker:
        worker(*args.worker)
        return
    if args.build_index:
        build_index(*args.build_index)
        return
    if not GOLD.is_file():
        sys.exit(f"the SIGHAN data is not at {ICWB2}")
    if args.alignment:
        print(json.dumps(alignment(args.repeat)))
        return

    with tempfile.TemporaryDirectory(prefix="score-speed-") as temp:
        directory = Path(temp)
        dictionary = scoring.read_dictionary(WORDS)
        run_text = scoring.baseline_run(scoring.read_text(TEST), dictionary)
        run_path = directory / "msr_base.utf8"
        run_path.write_bytes(run_text.encode("utf-8"))
        print(
            f"run: BASE (forward maximum matching) of {TEST.name}, {run_path.stat().st_size:,} B; "
            f"glibc keeps freed memory: {'yes' if kept else 'no'}"
        )

        # 1. Files to full result.
        score = score_files(WORDS, GOLD, run_path)
        files_ms, files_cpu = median_ms(lambda: score_files(WORDS, GOLD, run_path), args.repeat)
        print(
            f"msr files -> full result: {files_ms:.1f} ms (target < {TARGET_FILES_MS:.0f} ms) "
            f"{verdict(files_ms < TARGET_FILES_MS)}  [CPU {files_cpu:.1f} ms; "
            f"N {score.true_words:,}, F {score.f:.3f}, {len(score.aligned_lines)} aligned lines]"
        )

        # 2. Against a prepared index.
        index = scoring.build_gold_index(GOLD.read_bytes(), dictionary)
        index_ms, index_cpu = median_ms(
            lambda: scoring.score_run(run_path.read_bytes(), index, aligned_lines="any"),
            args.repeat,
        )
        print(
            f"msr run vs prepared gold index: {index_ms:.1f} ms "
            f"(target < {TARGET_INDEX_MS:.0f} ms) {verdict(index_ms < TARGET_INDEX_MS)}  "
            f"[CPU {index_cpu:.1f} ms]"
        )

        # 3. 100x, in fresh subprocesses: one prepares and saves the index, one scores.
        gold_x = directory / "msr_gold_x100.utf8"
        run_x = directory / "msr_base_x100.utf8"
        gold_bytes, run_bytes = GOLD.read_bytes(), run_path.read_bytes()
        gold_x.write_bytes(gold_bytes * COPIES)
        run_x.write_bytes(run_bytes * COPIES)
        index_x = directory / "msr_gold_x100.npz"
        built = run_json("--build-index", str(gold_x), str(WORDS), str(index_x))
        # One fresh process per repetition, each doing only this work; medians of all three.
        trials = [run_json("--worker", str(index_x), str(run_x)) for _ in range(X100_REPEAT)]
        scored = {key: statistics.median(trial[key] for trial in trials) for key in trials[0]}
        words_per_s = scored["true_words"] / scored["seconds"]
        cpu_words_per_s = scored["true_words"] / scored["cpu_seconds"]
        input_bytes = gold_x.stat().st_size + run_x.stat().st_size
        rss_ratio = scored["peak_rss"] / input_bytes
        print(
            f"100x ({scored['true_words']:,.0f} gold words, inputs {input_bytes / 1e6:.0f} MB): "
            f"{words_per_s / 1e6:.2f} M gold words/s in {scored['seconds']:.2f} s "
            f"(target >= {TARGET_WORDS_PER_S / 1e6:.0f} M/s) "
            f"{verdict(words_per_s >= TARGET_WORDS_PER_S)}  "
            f"[CPU {scored['cpu_seconds']:.2f} s: {cpu_words_per_s / 1e6:.2f} M/s]"
        )
        print(
            f"100x peak RSS of the scoring process: {scored['peak_rss'] / 1e6:.0f} MB = "
            f"{rss_ratio:.2f}x the input files (target <= {TARGET_RSS_RATIO:.0f}x) "
            f"{verdict(rss_ratio <= TARGET_RSS_RATIO)}"
        )
        print(
            f"  (preparing the 100x index, not a target: {built['seconds']:.2f} s, peak RSS "
            f"{built['peak_rss'] / 1e6:.0f} MB = {built['peak_rss'] / gold_x.stat().st_size:.2f}x "
            f"the gold file; index file {index_x.stat().st_size / 1e6:.0f} MB)"
        )

        # 4. The Perl scorer on the 1x files.
        perl_ratio = None
        if args.skip_perl:
            print("perl scripts/score: skipped")
        else:
            started = time.perf_counter()
            subprocess.run(
                ["perl", str(SCORE_SCRIPT), str(WORDS), str(GOLD), str(run_path)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
            )
            perl_s = time.perf_counter() - started
            perl_ratio = perl_s * 1000 / files_ms
            print(
                f"perl scripts/score on the 1x files: {perl_s:.1f} s; ours from files is "
                f"{perl_ratio:.0f}x faster (target >= {TARGET_PERL_RATIO:.0f}x) "
                f"{verdict(perl_ratio >= TARGET_PERL_RATIO)}"
            )

    aligned = alignment(args.repeat)
    print(
        json.dumps(
            {
                "msr_files_ms": round(files_ms, 2),
                "msr_index_ms": round(index_ms, 2),
                "x100_words_per_s": round(words_per_s),
                "x100_peak_rss_ratio": round(rss_ratio, 3),
                "perl_ratio": None if perl_ratio is None else round(perl_ratio, 1),
                **aligned,
            }
        )
    )


if __name__ == "__main__":
    main()
