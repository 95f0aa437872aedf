"""One concept, one term (issue 28): the catalogues call a run, the results and a results version
by the glossary's Chinese terms (docs/glossary.md), so that "results version 2" is never written
with the word of a run, as 结果第 2 版 once stood beside S01 结果 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config.catalogues import LOCALE, Entry, read

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
COLUMN = {"zh_Hans": 1, "zh_Hant": 2}  # the glossary table's columns: English, 简体, 繁體, note

RUN = re.compile(r"\bruns?\b|\bruns?'", re.IGNORECASE)
RESULTS = re.compile(r"\bresults\b(?!\.json)", re.IGNORECASE)
RESULTS_VERSION = re.compile(r"\bresults versions?\b", re.IGNORECASE)
# What names the results without the word: a track's table, their publication.
RESULTS_TOO = re.compile(r"\btables?\b|\bpublicat|\bpublish", re.IGNORECASE)


def terms() -> dict[str, list[str]]:
    """The glossary's terms by English name: [English, 简体, 繁體], each its first term."""
    rows: dict[str, list[str]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 4:
            rows[cells[0]] = [re.split(r" \(|, ", cell)[0] for cell in cells[:3]]
    return rows


def translations(entry: Entry) -> str:
    return " ".join(entry.msgstr.values())


def english(entry: Entry) -> str:
    return f"{entry.msgid} {entry.msgid_plural}"


@pytest.fixture(params=sorted(COLUMN))
def catalogue(request: pytest.FixtureRequest) -> tuple[str, list[Entry]]:
    locale: str = request.param
    return locale, read(LOCALE / locale / "LC_MESSAGES" / "django.po")


def test_the_glossary_gives_a_run_and_the_results_different_terms() -> None:
    glossary = terms()
    for column in COLUMN.values():
        run, results = glossary["run"][column], glossary["results"][column]
        assert run and results and run not in results and results not in run
        assert glossary["results version"][column].startswith(results)
        assert glossary["results published"][column].startswith(results)


def test_the_results_are_called_by_the_results_term(catalogue: tuple[str, list[Entry]]) -> None:
    locale, entries = catalogue
    results = terms()["results"][COLUMN[locale]]
    wrong = [
        e.msgid for e in entries if RESULTS.search(english(e)) and results not in translations(e)
    ]
    assert wrong == [], f"{locale}: 'results' not translated as {results}"


def test_a_results_version_is_numbered_with_the_results_term(
    catalogue: tuple[str, list[Entry]],
) -> None:
    locale, entries = catalogue
    glossary = terms()
    results = glossary["results"][COLUMN[locale]]
    run = glossary["run"][COLUMN[locale]]
    version = re.compile(rf"{results}第 [^ ]+ 版|{results}版本")
    wrong = [
        e.msgid
        for e in entries
        if RESULTS_VERSION.search(english(e)) and not version.search(translations(e))
    ]
    assert wrong == [], f"{locale}: a results version not written {results}第 N 版"
    # and never with the run's term, as 结果第 2 版 was
    confused = [
        e.msgid for e in entries if re.search(rf"{run}第 [^ ]+ 版|{run}版本", translations(e))
    ]
    assert confused == []


def test_a_run_is_never_called_by_the_results_term(catalogue: tuple[str, list[Entry]]) -> None:
    locale, entries = catalogue
    results = terms()["results"][COLUMN[locale]]
    wrong = [
        e.msgid
        for e in entries
        if RUN.search(english(e))
        and not RESULTS.search(english(e))
        and not RESULTS_TOO.search(english(e))
        and results in translations(e)
    ]
    assert wrong == [], f"{locale}: a run called {results}"


def test_a_run_is_called_by_the_run_term(catalogue: tuple[str, list[Entry]]) -> None:
    """Every message that names a run as a noun, alone ("Run", "run number", "%(count)d runs"),
    says the run's term."""
    locale, entries = catalogue
    run = terms()["run"][COLUMN[locale]]
    named = [e for e in entries if re.fullmatch(r"(?i)(\w+ )?runs?( \w+)?:?", e.msgid)]
    assert len(named) >= 5
    wrong = [e.msgid for e in named if run not in translations(e)]
    assert wrong == [], f"{locale}: a run not called {run}"


def test_the_publication_of_the_results_is_said_one_way(
    catalogue: tuple[str, list[Entry]],
) -> None:
    """成績公布, never 成績公佈 beside it: the glossary's term, in every message."""
    locale, entries = catalogue
    glossary = terms()
    results = glossary["results"][COLUMN[locale]]
    published = glossary["results published"][COLUMN[locale]]
    publishing = re.compile(rf"{results}公[布佈]")  # the two ways 繁體 writes it
    said = {found for entry in entries for found in publishing.findall(translations(entry))}
    assert said == {published}
