"""docs/api-errors.md lists every code the API answers with: each domain refusal's, each the API's
views give themselves, and each of its parsers'; and it lists exactly the codes of the one list in
the code, bakeoff/error_codes.py, from which the OpenAPI description is made."""

from __future__ import annotations

import re
from pathlib import Path

import bakeoff.api.views  # noqa: F401  (every refusal the API raises is imported)
import leaderboard.archive  # noqa: F401  (and the others: the list is the same in any order)
from bakeoff import error_codes
from bakeoff.errors import Refused

ROOT = Path(__file__).resolve().parents[2]
# Refusals that no API operation answers: a late run's decision, a bundle (a page and a command),
# an archive (a command).
PAGES_ONLY = {"late_runs_need_decision", "bad_bundle", "bad_archive"}


def _subclasses(cls: type[Refused]) -> list[type[Refused]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def documented() -> set[str]:
    table = [line for line in (ROOT / "docs/api-errors.md").read_text().splitlines() if line]
    codes: set[str] = set()
    for row in table:
        cells = row.split("|")
        if len(cells) > 3 and cells[1].strip().isdigit():
            codes |= set(re.findall(r"`([a-z_]+)`", cells[2]))
    return codes


def test_every_code_of_the_api_is_documented() -> None:
    codes = {Refused.code} | {cls.code for cls in _subclasses(Refused)} - PAGES_ONLY
    for source in (ROOT / "bakeoff/api").glob("*.py"):
        text = source.read_text()
        codes |= set(re.findall(r'\berror\(\s*request,\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'\bcode="([a-z_]+)"', text))
    assert {"invalid", "json_too_deep", "no_file", "unknown_phase"} <= codes  # the scan finds them
    assert codes - documented() == set()
    assert codes - set(error_codes.BY_CODE) == set()


def test_the_doc_and_the_list_of_codes_agree_both_ways() -> None:
    listed = set(error_codes.BY_CODE)
    assert len(listed) == len(error_codes.ERRORS)  # no code listed twice
    assert documented() - listed == set()
    assert listed - documented() == set()


def test_each_code_is_documented_with_its_status() -> None:
    statuses: dict[str, set[int]] = {}
    for row in (ROOT / "docs/api-errors.md").read_text().splitlines():
        cells = row.split("|")
        if len(cells) > 3 and cells[1].strip().isdigit():
            for code in re.findall(r"`([a-z_]+)`", cells[2]):
                statuses.setdefault(code, set()).add(int(cells[1]))
    assert statuses == {error.code: set(error.statuses) for error in error_codes.ERRORS}
