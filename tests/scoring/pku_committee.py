"""A small PKU experiment for the balanced-score checks (docs/measures/balanced-f.md): a committee
and CRF runs.

To keep the real-data tests within about four minutes of CPU, everything trains on a seeded
sample of the PKU training reconstruction, with few L-BFGS iterations and the templates F1/F2:

- the committee: K CRF members drawn from that sample (kind ``crf``), as docs/measures/balanced-f.md
  describes;
- the runs: F2 taggers trained on 20%, 50%, 80% and 100% of the sample (the paper's Table 2),
  and F1 taggers on the same four shares, eight runs in all, each tagging the pku test text.

The result is computed once per session and shared by pytest-xdist workers through a file.

Run ``python -m tests.scoring.pku_committee`` to print the figures.
"""

from __future__ import annotations

import fcntl
import json
import random
import resource
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from scoring import build_gold_index, read_dictionary, read_text
from scoring.core.gold import GoldIndex
from scoring.core.score import ScoredRun, score_run_details
from scoring.psychometric.committee import (
    build_committee,
    test_sentences,
    training_sentences,
)
from scoring.psychometric.crf import Template, train_tagger
from scoring.psychometric.difficulty import Committee

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
DATA = SHARED / "data"
TRAINING = DATA / "pku_training_reconstruction" / "pku_training_partial.utf8"
WORDS = DATA / "icwb2" / "gold" / "pku_training_words.utf8"
GOLD = DATA / "icwb2" / "gold" / "pku_test_gold.utf8"
TEST = DATA / "icwb2" / "testing" / "pku_test.utf8"

SAMPLE_SENTENCES = 3000
SAMPLE_SEED = 2016
K = 6
COMMITTEE_SEED = 1
COMMITTEE_TEMPLATES: tuple[Template, ...] = ("F1", "F2")
MAX_ITERATIONS = 30
RUN_ITERATIONS = 60
SHARES = (0.2, 0.5, 0.8, 1.0)
RUN_TEMPLATES: tuple[Template, ...] = ("F2", "F1")


def missing_data() -> str | None:
    """Why the experiment cannot run here, or None."""
    for path in (TRAINING, WORDS, GOLD, TEST):
        if not path.is_file():
            return f"{path} is absent (the shared data lives in ../shared beside the repository)"
    return None


def run_name(template: str, share: float) -> str:
    return f"crf-{template}-{round(share * 100)}%"


@dataclass(frozen=True, eq=False)
class Experiment:
    gold: GoldIndex
    committee: Committee
    runs: dict[str, ScoredRun]  # in order: F2 20%, 50%, 80%, 100%, then F1
    cpu_seconds: float


def training_sample() -> list[str]:
    sentences = training_sentences(read_text(TRAINING))
    return random.Random(SAMPLE_SEED).sample(sentences, SAMPLE_SENTENCES)


def segment_run(template: Template, training: list[str], tests: list[str]) -> str:
    """A run: a CRF trained on ``training`` segments the test sentences."""
    tagger = train_tagger(training, template=template, max_iterations=RUN_ITERATIONS)
    return tagger.segment_text(tests)


def compute(progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Train everything; returns plain data (the committee's JSON and the runs' texts)."""
    started = time.process_time() - _children_cpu()
    gold = build_gold_index(read_text(GOLD), read_dictionary(WORDS))
    sample = training_sample()
    committee = build_committee(
        sample,
        gold,
        k=K,
        seed=COMMITTEE_SEED,
        templates=COMMITTEE_TEMPLATES,
        max_iterations=MAX_ITERATIONS,
        max_workers=2,
    )
    progress(f"committee {committee.signature}")
    tests = test_sentences(gold)
    jobs = {
        run_name(template, share): (template, sample[: round(share * len(sample))], tests)
        for template in RUN_TEMPLATES
        for share in SHARES
    }
    # Two processes, like the committee: a worker waiting for this result then costs no CPU.
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        futures = {name: pool.submit(segment_run, *job) for name, job in jobs.items()}
        runs = {name: future.result() for name, future in futures.items()}
    progress("runs " + ", ".join(runs))
    return {
        "committee": committee.to_dict(),
        "runs": runs,
        "cpu_seconds": time.process_time() - started + _children_cpu(),
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load(shared: Path) -> Experiment:
    """The experiment, computed by the first worker that takes the lock, read by the others."""
    results = shared / "pku-committee.json"
    with open(shared / "pku-committee.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if results.is_file():
            data = json.loads(results.read_text("utf-8"))
        else:
            data = compute()
            results.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    gold = build_gold_index(read_text(GOLD), read_dictionary(WORDS))
    runs = {name: score_run_details(text, gold) for name, text in data["runs"].items()}
    return Experiment(
        gold=gold,
        committee=Committee.from_dict(data["committee"]),
        runs=runs,
        cpu_seconds=float(data["cpu_seconds"]),
    )


def pearson(x: list[float], y: list[float]) -> float:
    return float(np.corrcoef(np.array(x), np.array(y))[0, 1])


if __name__ == "__main__":
    from scoring.psychometric.balanced import balanced_score
    from scoring.psychometric.committee import committee_from_runs

    wall = time.perf_counter()
    data = compute(lambda message: print(message, flush=True))
    committee = Committee.from_dict(data["committee"])
    gold = build_gold_index(read_text(GOLD), read_dictionary(WORDS))
    scored = {name: score_run_details(text, gold) for name, text in data["runs"].items()}
    for member in committee.members:
        print(member.to_dict())
    by_runs = committee_from_runs(scored)
    lines = np.random.default_rng(5).permutation(gold.line_count)
    halves = (lines[: len(lines) // 2], lines[len(lines) // 2 :])
    first, second = [], []
    for name, run in scored.items():
        b = balanced_score(run, committee.difficulty)
        b2 = balanced_score(run, by_runs.difficulty)
        first.append(balanced_score(run, committee.difficulty, lines=halves[0]).f_b)
        second.append(balanced_score(run, committee.difficulty, lines=halves[1]).f_b)
        print(f"{name}: F={run.score.f:.4f} F_b={b.f_b:.4f} F_b(runs)={b2.f_b:.4f}")
    print("pearson", pearson(first, second))
    print("cpu", data["cpu_seconds"], "wall", time.perf_counter() - wall)
