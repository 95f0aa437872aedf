"""The Perl scorer's figures on the 16 parity runs (test_perl_parity.py), in a process of its own.

The 16 Perl runs take about 6 minutes of CPU, most of it forking GNU diff once per gold line,
while the rest of the suite uses one core of two. So when a session collects the parity tests,
it starts this module at its beginning (``start``, called from tests/scoring/conftest.py), at a
lower priority: the Perl runs take the idle core, and the parity fixture reads their results
(``collect``) instead of waiting minutes for them at the end.

By hand: ``python -m tests.scoring.perl_reference DIRECTORY`` writes the runs and results.json
there.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import scoring
from tests.scoring import perl
from tests.scoring.runs import (
    BOM,
    RunFormat,
    backward_maxmatch_run,
    perturbed_run,
    word_list,
)

REPO = Path(__file__).resolve().parents[2]
GOLD_DIR = perl.ICWB2 / "gold"
TEST_DIR = perl.ICWB2 / "testing"
RESULTS = "results.json"
RUNS_WRITTEN = "runs-written"
LOG = "perl-reference.log"

# The process this session started, and its directory (set by tests/scoring/conftest.py).
STARTED: tuple[subprocess.Popen[bytes], Path] | None = None


@dataclass(frozen=True)
class Corpus:
    name: str
    gold: str
    base_f: str  # docs/measures/maxmatch.md: character-level maximum matching
    top_f: str

    @property
    def gold_path(self) -> Path:
        return GOLD_DIR / self.gold

    @property
    def test_path(self) -> Path:
        return TEST_DIR / f"{self.name}_test.utf8"

    @property
    def words_path(self) -> Path:
        return GOLD_DIR / f"{self.name}_training_words.utf8"


CORPORA = {
    corpus.name: corpus
    for corpus in (
        # The slowest for Perl first, so the two workers finish together.
        Corpus("as", "as_testing_gold.utf8", base_f="0.887", top_f="0.983"),
        Corpus("msr", "msr_test_gold.utf8", base_f="0.937", top_f="0.992"),
        Corpus("pku", "pku_test_gold.utf8", base_f="0.874", top_f="0.988"),
        Corpus("cityu", "cityu_test_gold.utf8", base_f="0.872", top_f="0.991"),
    )
}
RUNS = ("BASE", "TOP", "perturbed", "backward")
PERTURBATION_SEED = 2005


def read_utf8(path: Path) -> str:
    """A file's text exactly, BOM and CR included (Path.read_text would translate newlines)."""
    return path.read_bytes().decode("utf-8")


def make_runs(corpus: Corpus) -> dict[str, str]:
    """The four runs of a corpus, as the files a participant would upload (cityu's with a BOM)."""
    gold_raw = read_utf8(corpus.gold_path)
    test_raw = read_utf8(corpus.test_path)
    has_bom = gold_raw.startswith(BOM)
    gold_text, test_text = gold_raw.removeprefix(BOM), test_raw.removeprefix(BOM)
    dictionary = scoring.read_dictionary(corpus.words_path)
    prefix = BOM if has_bom else ""
    return {
        "BASE": prefix + scoring.baseline_run(test_text, dictionary),
        "TOP": prefix + scoring.topline_run(test_text, gold_text),
        "perturbed": perturbed_run(gold_raw, test_raw, seed=PERTURBATION_SEED),
        "backward": backward_maxmatch_run(
            test_raw, word_list(corpus.words_path), run_format=RunFormat(bom=has_bom)
        ),
    }


def run_path(directory: Path, label: str) -> Path:
    """``as/BASE`` → ``DIRECTORY/as_BASE.utf8``."""
    return directory / f"{label.replace('/', '_')}.utf8"


def write_runs(directory: Path) -> dict[str, Path]:
    """Every parity run as a file, by label (``as/BASE``), in the order Perl should take them."""
    paths = {}
    for corpus in CORPORA.values():
        for kind, text in make_runs(corpus).items():
            label = f"{corpus.name}/{kind}"
            paths[label] = run_path(directory, label)
            paths[label].write_bytes(text.encode("utf-8"))
    return paths


def score_with_perl(paths: dict[str, Path], workers: int = 2) -> dict[str, perl.PerlScore]:
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="perl-score") as pool:
        jobs = {
            label: pool.submit(
                perl.run_perl_score,
                CORPORA[label.split("/")[0]].words_path,
                CORPORA[label.split("/")[0]].gold_path,
                path,
            )
            for label, path in paths.items()
        }
        return {label: job.result() for label, job in jobs.items()}


def compute(directory: Path) -> None:
    """The runs, then Perl's results, written into ``directory``; each marker file appears whole
    once what it announces is there."""
    paths = write_runs(directory)
    perl.write_whole(directory / RUNS_WRITTEN, "\n".join(paths))
    results = score_with_perl(paths)
    perl.write_whole(
        directory / RESULTS, json.dumps({label: perl.to_json(r) for label, r in results.items()})
    )


def start(directory: Path) -> subprocess.Popen[bytes]:
    """``compute`` in a process of its own, niced; what it prints goes to ``perl-reference.log``."""
    with open(directory / LOG, "wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "tests.scoring.perl_reference", str(directory)],
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=lambda: os.nice(10),  # the tests in the foreground keep their core
            start_new_session=True,  # so that stop() reaches perl and diff too
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """The process and its Perl and diff children, if it still runs (a session cut short)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def to_the_foreground(process: subprocess.Popen[bytes]) -> None:
    """Back to the usual priority, once the tests wait for it: nothing is left to yield to. Only
    root may raise a priority; elsewhere it stays niced, which costs nothing on a quiet machine."""
    with contextlib.suppress(PermissionError, ProcessLookupError):
        os.setpriority(os.PRIO_PGRP, process.pid, 0)


def wait_for_runs(process: subprocess.Popen[bytes], directory: Path) -> dict[str, Path]:
    """The run files once the process has written them (Perl may still be scoring them)."""
    to_the_foreground(process)
    while not (directory / RUNS_WRITTEN).is_file():
        if process.poll() is not None:
            collect(process, directory)  # raises, with the log, unless it finished well
        time.sleep(0.2)
    labels = (directory / RUNS_WRITTEN).read_text().splitlines()
    return {label: run_path(directory, label) for label in labels}


def collect(process: subprocess.Popen[bytes], directory: Path) -> dict[str, perl.PerlScore]:
    """Waits for a ``start``-ed process and reads what it wrote; its log when it failed."""
    if process.wait() != 0:
        log = (directory / LOG).read_text(errors="replace")
        raise RuntimeError(f"the Perl reference runs failed ({process.returncode}):\n{log}")
    data = json.loads((directory / RESULTS).read_text())
    return {label: perl.from_json(result) for label, result in data.items()}


if __name__ == "__main__":
    compute(Path(sys.argv[1]))
