"""Parity with the SIGHAN 2005 Perl scorer on the four icwb2 corpora (docs/perl-departures.md).

For each corpus we score four runs with the library and with ``scripts/score``: BASE and TOP
(forward maximum matching, docs/measures/maxmatch.md), a seeded perturbation of gold, and backward
maximum matching with the training words. N and N' must be identical; each printed figure must equal
Perl's but those pinned in ``KNOWN``, each one unit apart in the third decimal, and the gold lines
where Perl's count of correct words differs from ours must be exactly those pinned there, line by
line with both counts (GNU diff's alignment is not minimal there, or pairs equal strings at
different places: docs/perl-departures.md). A change of the scorer, of the runs or of Perl's
answer fails the test on the line it concerns. Every difference is also reported at the end of the
session with the lines it comes from.

The 16 Perl runs (about 6 minutes of CPU, most of it forking GNU diff once per gold line; the as
corpus, with 14,432 lines, is the slowest) run once per session, two at a time, in a process the
session starts at its beginning (tests/scoring/perl_reference.py), so that they take the core the
rest of the suite leaves idle; under pytest-xdist one worker runs them and the others wait for its
results. Perl's answers are kept between sessions, keyed by every input (tests/scoring/perl.py):
Perl runs again when a run, the data, the script, perl, diff or the locale changes, and the report
says which answers were read from the cache.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import pytest

import scoring
from tests.scoring import perl, perl_reference
from tests.scoring.perl_reference import CORPORA, REPO, RUNS, Corpus, read_utf8
from tests.scoring.runs import BOM, line_words, text_lines

pytestmark = pytest.mark.perl

_MISSING = perl.missing_requirement()
if _MISSING:
    pytest.skip(f"cannot run the Perl scorer: {_MISSING}", allow_module_level=True)

FIGURE_LABELS = {
    "R": "TOTAL TRUE WORDS RECALL",
    "P": "TOTAL TEST WORDS PRECISION",
    "F": "F MEASURE",
    "OOV rate": "OOV Rate",
    "OOV recall": "OOV Recall Rate",
    "IV recall": "IV Recall Rate",
}
ONE_UNIT = Decimal("0.001")


@dataclass(frozen=True)
class Known:
    """How one parity run is known to differ from Perl: the figures one unit apart (ours,
    Perl's), and the gold lines where Perl's count of correct words differs from ours (line:
    Perl's c, ours)."""

    figures: dict[str, tuple[str, str]] = field(default_factory=dict)
    lines: dict[int, tuple[int, int]] = field(default_factory=dict)


# Measured on 2026-11-25 with GNU diffutils 3.8, perl 5.36 and the scorer of the icwb2 release
# (docs/perl-departures.md, "Parity on the icwb2 data"). Every run is listed; an empty Known means
# full agreement. Where Perl's c is lower, GNU diff's alignment is not minimal on that line; where
# it is higher, diff paired equal strings at different places.
KNOWN: dict[str, Known] = {
    "as/BASE": Known(
        figures={"R": ("0.912", "0.911")},
        lines={
            1249: (4, 12),
            1711: (17, 21),
            3204: (5, 12),
            3205: (16, 22),
            3211: (2, 10),
            3214: (13, 22),
            3223: (3, 9),
            8766: (7, 6),
        },
    ),
    "as/TOP": Known(figures={}, lines={8766: (7, 6)}),
    "as/backward": Known(
        figures={"R": ("0.914", "0.913"), "P": ("0.866", "0.865")},
        lines={
            1249: (4, 12),
            1711: (17, 21),
            3204: (5, 12),
            3205: (14, 20),
            3211: (2, 10),
            3214: (11, 20),
            3223: (3, 9),
            12173: (8, 7),
        },
    ),
    "as/perturbed": Known(figures={}, lines={}),
    "cityu/BASE": Known(
        figures={}, lines={519: (64, 67), 1235: (29, 30), 1356: (48, 49), 1489: (46, 45)}
    ),
    "cityu/TOP": Known(figures={}, lines={1489: (49, 48)}),
    "cityu/backward": Known(
        figures={}, lines={519: (64, 67), 668: (70, 71), 1235: (30, 31), 1356: (48, 49)}
    ),
    "cityu/perturbed": Known(figures={}, lines={}),
    "msr/BASE": Known(
        figures={}, lines={418: (39, 43), 837: (81, 83), 838: (54, 55), 2578: (90, 95)}
    ),
    "msr/TOP": Known(figures={}, lines={}),
    "msr/backward": Known(
        figures={}, lines={418: (35, 39), 837: (83, 85), 838: (54, 55), 2578: (90, 95)}
    ),
    "msr/perturbed": Known(figures={}, lines={3643: (40, 39)}),
    "pku/BASE": Known(
        figures={},
        lines={
            646: (172, 173),
            647: (104, 105),
            893: (108, 109),
            1046: (202, 203),
            1103: (242, 243),
            1230: (98, 99),
            1241: (125, 126),
            1348: (76, 77),
            1928: (86, 87),
        },
    ),
    "pku/TOP": Known(figures={}, lines={}),
    "pku/backward": Known(
        figures={},
        lines={
            177: (55, 54),
            536: (115, 114),
            646: (176, 177),
            647: (104, 105),
            687: (120, 121),
            1230: (98, 99),
            1241: (125, 126),
            1348: (76, 77),
            1657: (112, 114),
            1928: (88, 89),
        },
    ),
    "pku/perturbed": Known(figures={}, lines={1853: (44, 43)}),
}


@dataclass
class Case:
    """One run of one corpus: its file, our score, and the Perl scorer's."""

    corpus: Corpus
    kind: str
    run_path: Path
    run_text: str
    ours: scoring.Score
    perl: perl.PerlScore

    @property
    def label(self) -> str:
        return f"{self.corpus.name}/{self.kind}"

    def our_figures(self) -> dict[str, str]:
        block = perl.summary_block(self.ours.summary_text(self.run_path.name))
        return {name: block[label] for name, label in FIGURE_LABELS.items()}


@pytest.fixture(scope="session")
def parity_cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """Every case, with Perl's result: from the process the session started with
    (perl_reference.start, tests/scoring/conftest.py), else computed here, once per session even
    under pytest-xdist: the first worker to take the lock runs Perl, the others read its results."""
    if perl_reference.STARTED is not None:
        process, directory = perl_reference.STARTED
        paths = perl_reference.wait_for_runs(process, directory)
        ours = score_with_library(paths)  # while Perl works, if it still does
        results = perl_reference.collect(process, directory)
    else:
        paths = perl_reference.write_runs(tmp_path_factory.mktemp("perl-parity"))
        results, ours = _perl_once_per_session(tmp_path_factory, paths)
    return {
        label: Case(
            CORPORA[label.split("/")[0]],
            label.split("/")[1],
            path,
            read_utf8(path),
            ours[label],
            results[label],
        )
        for label, path in paths.items()
    }


def _perl_once_per_session(
    tmp_path_factory: pytest.TempPathFactory, paths: dict[str, Path]
) -> tuple[dict[str, perl.PerlScore], dict[str, scoring.Score]]:
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the controller's base directory, which every worker shares
    results_path = shared / "perl-parity-results.json"
    with open(shared / "perl-parity.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if results_path.is_file():
            data = json.loads(results_path.read_text())
            return {label: perl.from_json(d) for label, d in data.items()}, score_with_library(
                paths
            )
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="perl-reference") as pool:
            job = pool.submit(perl_reference.score_with_perl, paths)
            ours = score_with_library(paths)  # while Perl works
            results = job.result()
        results_path.write_text(
            json.dumps({label: perl.to_json(result) for label, result in results.items()})
        )
        return results, ours


def score_with_library(paths: dict[str, Path]) -> dict[str, scoring.Score]:
    scores = {}
    for corpus in CORPORA.values():
        gold = scoring.build_gold_index(
            corpus.gold_path.read_bytes(), scoring.read_dictionary(corpus.words_path)
        )
        for label, path in paths.items():
            if label.startswith(f"{corpus.name}/"):
                scores[label] = scoring.score_run(read_utf8(path), gold, aligned_lines="any")
    return scores


# -- the report ------------------------------------------------------------------------------------


def line_differences(case: Case) -> list[tuple[int, int, int, str]]:
    """The gold lines on which Perl's c differs from ours: (line, Perl's c, ours, why).

    Our correct words on a line match gold spans, which are a common subsequence of the two word
    lists; so where Perl counts fewer, GNU diff's alignment is not minimal. Where Perl counts more,
    diff has paired equal words at different character offsets (their spans differ). On a line
    whose characters differ from gold's, ours comes from character alignment.
    """
    gold_lines = text_lines(read_utf8(case.corpus.gold_path))
    run_lines = text_lines(case.run_text)
    dictionary = scoring.Dictionary.from_words(())
    aligned = set(case.ours.aligned_lines)
    found = []
    for counts in case.perl.lines:
        index = counts.line - 1
        gold_words, run_words = line_words(gold_lines[index]), line_words(run_lines[index])
        if counts.line in aligned:
            ours = scoring.score_texts(
                " ".join(gold_words), " ".join(run_words), dictionary, aligned_lines="any"
            ).correct
        else:
            ours = len(_spans(gold_words) & _spans(run_words))
        if ours == counts.correct:
            continue
        if counts.line in aligned:
            why = "characters differ from gold; ours by character alignment"
        elif counts.correct < ours:
            why = "GNU diff's alignment is not minimal"
        else:
            why = "diff pairs equal words at different offsets"
        found.append((counts.line, counts.correct, ours, why))
    return found


def _spans(words: list[str]) -> set[tuple[int, int]]:
    spans, offset = set(), 0
    for word in words:
        spans.add((offset, offset + len(word)))
        offset += len(word)
    return spans


def explain_difference(case: Case) -> list[str]:
    """Report lines: per cause, the lines and their c (Perl/ours), and one example of each."""
    gold_lines = text_lines(read_utf8(case.corpus.gold_path))
    run_lines = text_lines(case.run_text)
    by_cause: dict[str, list[tuple[int, int, int]]] = {}
    for line, theirs, ours, why in line_differences(case):
        by_cause.setdefault(why, []).append((line, theirs, ours))
    notes = []
    for why, lines in by_cause.items():
        net = sum(theirs - ours for _, theirs, ours in lines)
        listed = ", ".join(f"{line} ({theirs}/{ours})" for line, theirs, ours in lines)
        notes.append(f"    {why}: {len(lines)} line(s), Perl's c {net:+d}: {listed}")
        line = lines[0][0]
        notes.append(f"      e.g. line {line} gold: {' '.join(line_words(gold_lines[line - 1]))}")
        notes.append(f"      e.g. line {line} run:  {' '.join(line_words(run_lines[line - 1]))}")
    return notes


def one_unit_apart(a: str, b: str) -> bool:
    if "--" in (a, b):
        return False
    return abs(Decimal(a) - Decimal(b)) == ONE_UNIT


def reporter(record_property: Callable[[str, object], None]) -> Callable[[str], None]:
    def report(line: str) -> None:
        print(line)
        record_property(perl.REPORT_PROPERTY, line)

    return report


# -- the tests -------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("kind", RUNS)
@pytest.mark.parametrize("corpus", CORPORA)
def test_it_matches_the_perl_scorer(
    corpus: str,
    kind: str,
    parity_cases: dict[str, Case],
    record_property: Callable[[str, object], None],
) -> None:
    report = reporter(record_property)
    case = parity_cases[f"{corpus}/{kind}"]
    ours, theirs = case.ours, case.perl
    assert (ours.true_words, ours.test_words) == (theirs.true_words, theirs.test_words)

    figures = case.our_figures()
    report(
        f"{case.label:16} c {ours.correct}/{theirs.correct} "
        + " ".join(f"{name} {figures[name]}/{theirs[name]}" for name in FIGURE_LABELS)
        + f"  (ours/Perl; N {ours.true_words}, N' {ours.test_words}; "
        f"Perl took {theirs.seconds:.0f} s{', read from the cache' if theirs.cached else ''})"
    )
    differing = {n: (figures[n], theirs[n]) for n in FIGURE_LABELS if figures[n] != theirs[n]}
    off_by_one = [n for n, (a, b) in differing.items() if one_unit_apart(a, b)]
    if differing or ours.correct != theirs.correct:
        report(
            f"  {case.label}: one unit apart: {off_by_one or 'none'}; c ours {ours.correct}, "
            f"Perl {theirs.correct}; ins/del/subst ours "
            f"{ours.insertions}/{ours.deletions}/{ours.substitutions}, Perl "
            f"{theirs['ins']}/{theirs['del']}/{theirs['subst']}"
        )
        for note in explain_difference(case):
            report(note)
    known = KNOWN[case.label]
    assert all(one_unit_apart(a, b) for a, b in known.figures.values()), known.figures
    assert differing == known.figures
    lines = {line: (perl_c, our_c) for line, perl_c, our_c, _ in line_differences(case)}
    assert lines == known.lines


@pytest.mark.slow
@pytest.mark.parametrize("corpus", CORPORA)
def test_baseline_and_topline_f_are_the_character_level_figures(
    corpus: str, parity_cases: dict[str, Case]
) -> None:
    spec = CORPORA[corpus]
    base, top = parity_cases[f"{corpus}/BASE"], parity_cases[f"{corpus}/TOP"]
    assert (base.our_figures()["F"], top.our_figures()["F"]) == (spec.base_f, spec.top_f)
    assert (base.perl["F"], top.perl["F"]) == (spec.base_f, spec.top_f)


@pytest.mark.slow
@pytest.mark.parametrize("corpus", CORPORA)
def test_generated_runs_segment_the_test_text(corpus: str, parity_cases: dict[str, Case]) -> None:
    test_bytes = CORPORA[corpus].test_path.read_bytes()
    for kind in RUNS:
        scoring.validate_run(parity_cases[f"{corpus}/{kind}"].run_text.encode("utf-8"), test_bytes)


@pytest.mark.slow
def test_command_line_prints_the_perl_summary_block(parity_cases: dict[str, Case]) -> None:
    case = parity_cases["pku/backward"]
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "score",
            "--dict",
            str(case.corpus.words_path),
            str(case.corpus.gold_path),
            str(case.run_path),
            "--format",
            "text",
        ],
        capture_output=True,
        check=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    ours = perl.summary_block(completed.stdout.decode("utf-8"))
    assert list(ours) == list(case.perl.labels)
    perl_figures = {label: case.perl[perl.SUMMARY_LABELS.get(label, label)] for label in ours}
    for label in ("SUMMARY", "TOTAL TRUE WORD COUNT", "TOTAL TEST WORD COUNT"):
        assert ours[label] == perl_figures[label]
    figures = case.our_figures()
    assert {name: ours[label] for name, label in FIGURE_LABELS.items()} == figures


# -- small constructed cases: where the Perl scorer's own arithmetic or reading shows through -----


def write_case(directory: Path, gold: str, run: str, words: str) -> tuple[Path, Path, Path]:
    paths = directory / "words.utf8", directory / "gold.utf8", directory / "run.utf8"
    for path, text in zip(paths, (words, gold, run), strict=True):
        path.write_bytes(text.encode("utf-8"))
    return paths


@pytest.mark.parametrize(
    ("words", "label"),
    [("丙\n", "OOV Recall Rate"), ("甲乙\n", "IV Recall Rate")],
    ids=["oov", "iv"],
)
def test_oov_and_iv_recall_round_as_perl_computes_them(
    tmp_path: Path, words: str, label: str
) -> None:
    # 80 gold words, 1 correct: the recall is 1/80 = 0.0125. Perl prints R as c / N, "0.013", but
    # OOV and IV recall as 1 - missed / total, which in binary lies below 0.0125: "0.012".
    gold = " ".join(["甲乙"] * 80) + "\n"
    run = "甲乙 " + " ".join(["甲 乙"] * 79) + "\n"
    words_path, gold_path, run_path = write_case(tmp_path, gold, run, words)
    theirs = perl.run_perl_score(words_path, gold_path, run_path)
    ours = scoring.score_texts(gold, run, scoring.Dictionary.from_word_list(words))
    block = perl.summary_block(ours.summary_text())
    assert (theirs["R"], theirs[perl.SUMMARY_LABELS[label]]) == ("0.013", "0.012")
    assert block["TOTAL TRUE WORDS RECALL"] == "0.013"
    assert block[label] == theirs[perl.SUMMARY_LABELS[label]]


def test_perl_reads_a_bom_as_part_of_the_first_word(tmp_path: Path) -> None:
    # cityu's gold starts with a BOM. Perl keeps it in the first word, which then is never in the
    # word list: one more OOV gold word than docs/validation.md (a BOM is dropped) gives. A run with
    # the BOM still matches that word; the figures here are equal, on cityu they agree at 3
    # decimals.
    gold = BOM + "的 一 是\n"
    words_path, gold_path, run_path = write_case(tmp_path, gold, gold, "的\n一\n是\n")
    theirs = perl.run_perl_score(words_path, gold_path, run_path)
    ours = scoring.score_texts(gold, gold, scoring.Dictionary.from_word_list("的\n一\n是\n"))
    assert theirs["R"] == "1.000"
    assert (theirs["OOV rate"], theirs["OOV recall"], theirs["IV recall"]) == (
        "0.333",
        "1.000",
        "1.000",
    )
    assert (ours.oov_words, ours.oov_recall, ours.iv_recall) == (0, None, 1.0)


def test_perl_gives_a_line_beginning_with_u3000_an_empty_word(tmp_path: Path) -> None:
    # Perl turns U+3000 into a space, then splits at whitespace: a line that begins with it
    # begins with an empty word, which Perl counts, and finds, though the run has no such word.
    gold, run = "\u3000的 一\n", "的 一\n"
    words_path, gold_path, run_path = write_case(tmp_path, gold, run, "的\n一\n")
    theirs = perl.run_perl_score(words_path, gold_path, run_path)
    ours = scoring.score_texts(gold, run, scoring.Dictionary.from_word_list("的\n一\n"))
    assert (theirs["N"], theirs["N'"], theirs["R"], theirs["P"]) == ("3", "2", "1.000", "1.000")
    assert (ours.true_words, ours.test_words, ours.correct) == (2, 2, 2)


@pytest.mark.parametrize(
    ("text", "recall", "f"),
    [("的 | 一\n", "0.667", "0.800"), ("的 < 一 > 是\n", "0.600", "0.750")],
    ids=["bar", "angle-brackets"],
)
def test_perl_reads_the_words_bar_and_angle_brackets_as_diff_markers(
    tmp_path: Path, text: str, recall: str, f: str
) -> None:
    # Perl reads the output of diff -y, where |, < and > mark changed lines: a gold word that is
    # one of them counts as an error even where the run has it too.
    words = "的\n一\n是\n|\n<\n>\n"
    words_path, gold_path, run_path = write_case(tmp_path, text, text, words)
    theirs = perl.run_perl_score(words_path, gold_path, run_path)
    ours = scoring.score_texts(text, text, scoring.Dictionary.from_word_list(words))
    assert (theirs["R"], theirs["P"], theirs["F"]) == (recall, "1.000", f)
    assert (ours.recall, ours.precision, ours.f) == (1.0, 1.0, 1.0)
