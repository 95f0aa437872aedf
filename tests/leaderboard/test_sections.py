"""The sections analysis and psychometric add to the pages of bakeoff and leaderboard: placed by
their apps (``bakeoff.sections``), never named by the pages, which render without them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from bakeoff import sections
from bakeoff.models import Bakeoff, Site, Submission, Track
from tests.factories import PERFECT_RUN, WORKED_RUN, rival, upload
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
TEMPLATES = Path(settings.BASE_DIR) / "templates"

# What each upper app's sections show, by page.
SHOWN = {
    TRACK: ["Paired bootstrap between adjacent ranks", "Attribute profile of the track"],
    "/bakeoffs/b2026/results/": ["Criterion discrepancy Ψ"],
    "/bakeoffs/b2026/corpora/PK/": ["Committee and balanced scores"],
}


@pytest.fixture
def runs(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> Submission:
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    user, _ = rival(bakeoff, closed)
    upload(user, closed, PERFECT_RUN, on_commit)
    return mine


def pages(runs: Submission) -> dict[str, list[str]]:
    return {**SHOWN, f"{TRACK}runs/{runs.pk}/": [f'{TRACK}runs/{runs.pk}/analysis/">Analysis']}


def test_the_upper_apps_show_their_sections(
    client_for: ClientFor, organiser: User, runs: Submission
) -> None:
    for path, shown in pages(runs).items():
        html = client_for(organiser).get(path).content.decode()
        for text in shown:
            assert text in html, (path, text)


def test_the_pages_render_without_the_upper_apps(
    client_for: ClientFor, organiser: User, runs: Submission, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sections, "_places", {})  # as if analysis and psychometric were absent
    for path, shown in pages(runs).items():
        answer = client_for(organiser).get(path)
        assert answer.status_code == 200, path
        for text in shown:
            assert text not in answer.content.decode(), (path, text)


UPPER_TEMPLATES = {
    "bakeoff": ("leaderboard/", "analysis/", "psychometric/"),
    "leaderboard": ("analysis/", "psychometric/"),
}
UPPER_LIBRARIES = {"analysis_tags", "psychometric"}


@pytest.mark.parametrize("app", ["bakeoff", "leaderboard"])
def test_the_lower_apps_templates_name_no_upper_apps_template_nor_tags(app: str) -> None:
    for template in (TEMPLATES / app).glob("*.html"):
        for tag in re.findall(r"{%\s*(include|extends|load|url)\s+(.*?)%}", template.read_text()):
            name, argument = tag[0], tag[1].strip()
            if name in ("include", "extends"):
                assert not argument.strip("'\"").startswith(UPPER_TEMPLATES[app]), (template, tag)
            elif name == "load":
                assert not set(argument.split()) & UPPER_LIBRARIES, (template, tag)
            else:  # links: bakeoff's pages link to the results, none to analysis's pages
                assert not argument.strip("'\"").startswith(("analysis:", "psychometric:")), tag
