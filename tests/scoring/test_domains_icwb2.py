"""Figures per domain on a real multi-domain set: the four SIGHAN 2005 test sets, each line
labelled with its corpus (tests/multidomain.py).

The domains' counts add up to the whole run's exactly, and each domain's figures are those of
scoring its lines alone (and, on cityu, those of the Perl scorer on its lines).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import Dictionary, Score, build_gold_index, score_run, score_run_details
from scoring.core.score import ANY_LINE
from scoring.fine.domains import DomainScore, domain_scores, read_domains
from tests import multidomain
from tests.scoring import perl

_MISSING = multidomain.missing()
pytestmark = pytest.mark.skipif(_MISSING is not None, reason=f"no multi-domain set: {_MISSING}")

COUNTS = ("true_words", "test_words", "correct", "oov_words", "correct_oov")
RUNS = ("perturbed", "backward")
PerDomain = dict[str, tuple[Score, tuple[DomainScore, ...]]]


@pytest.fixture(scope="module")
def data() -> multidomain.MultiDomainSet:
    return multidomain.icwb2_domains()


@pytest.fixture(scope="module")
def dictionary(data: multidomain.MultiDomainSet) -> Dictionary:
    return Dictionary.from_word_list(data.words)


@pytest.fixture(scope="module")
def per_domain(data: multidomain.MultiDomainSet, dictionary: Dictionary) -> PerDomain:
    index = build_gold_index(data.gold, dictionary)
    labels = read_domains(data.labels, index.line_count)
    found: PerDomain = {}
    for name in RUNS:
        run = score_run_details(getattr(data, name), index, aligned_lines=ANY_LINE)
        found[name] = (run.score, domain_scores(run, labels))
    return found


@pytest.mark.parametrize("name", RUNS)
def test_the_domains_add_up_to_the_run(name: str, per_domain: PerDomain) -> None:
    whole, domains = per_domain[name]
    assert [d.domain for d in domains] == ["as", "cityu", "msr", "pku"]
    assert sum(d.lines for d in domains) == 14432 + 1493 + 3985 + 1945
    for key in COUNTS:
        assert sum(getattr(d, key) for d in domains) == getattr(whole, key), key
    assert whole.true_words == 374791


@pytest.mark.parametrize("name", RUNS)
def test_each_domain_scores_as_its_lines_alone(
    name: str,
    per_domain: PerDomain,
    data: multidomain.MultiDomainSet,
    dictionary: Dictionary,
) -> None:
    _, domains = per_domain[name]
    for domain in domains:
        gold = build_gold_index(data.lines_of(data.gold, domain.domain), dictionary)
        alone = score_run(
            data.lines_of(getattr(data, name), domain.domain), gold, aligned_lines=ANY_LINE
        )
        assert gold.line_count == domain.lines
        for key in COUNTS:
            assert getattr(domain, key) == getattr(alone, key), (domain.domain, key)
        assert domain.figures() == alone.figures()


def test_the_command_line_prints_the_domains(
    data: multidomain.MultiDomainSet, tmp_path: Path
) -> None:
    for name, text in (
        ("gold", data.gold),
        ("run", data.perturbed),
        ("words", data.words),
        ("labels", data.labels),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "scoring", "score", "--dict", str(tmp_path / "words")]
    command += [
        "--domains",
        str(tmp_path / "labels"),
        str(tmp_path / "gold"),
        str(tmp_path / "run"),
    ]
    document = json.loads(
        subprocess.run([*command, "--format", "json"], capture_output=True, check=True).stdout
    )
    assert [d["domain"] for d in document["domains"]] == ["as", "cityu", "msr", "pku"]
    assert sum(d["correct"] for d in document["domains"]) == document["correct"]
    assert document["domain_labels"].startswith("sha256:")
    text = subprocess.run(command, capture_output=True, check=True, text=True).stdout
    rows = {line.split("\t")[0]: line.split("\t") for line in text.splitlines()}
    assert rows["cityu"][1:4] == ["1493", "40936", "39946"]


# Perl parity on the SIGHAN data, as the other runs of the Perl scorer: in make test, not in the
# quick loop (make check), whose definition leaves Perl parity out.
@pytest.mark.slow
@pytest.mark.perl
@pytest.mark.skipif(perl.missing_requirement() is not None, reason=str(perl.missing_requirement()))
def test_a_domain_equals_the_perl_scorer_on_its_lines(
    per_domain: PerDomain,
    data: multidomain.MultiDomainSet,
    tmp_path: Path,
) -> None:
    """cityu, the smallest domain (1,493 lines, about 5 s of Perl)."""
    (cityu,) = (d for d in per_domain["perturbed"][1] if d.domain == "cityu")
    files = {
        "words": data.words,
        "gold": data.lines_of(data.gold, "cityu"),
        "run": data.lines_of(data.perturbed, "cityu"),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    theirs = perl.run_perl_score(tmp_path / "words", tmp_path / "gold", tmp_path / "run")
    assert (theirs.true_words, theirs.test_words, theirs.correct) == (
        cityu.true_words,
        cityu.test_words,
        cityu.correct,
    )
    ours = {
        "R": cityu.recall,
        "P": cityu.precision,
        "F": cityu.f,
        "OOV rate": cityu.oov_rate,
        "OOV recall": cityu.oov_recall,
        "IV recall": cityu.iv_recall,
    }
    for key, value in ours.items():
        assert theirs[key] == f"{value:.3f}", key
