"""CSV, JSON (with each score's signature) and LaTeX (booktabs) of a track's table."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Site, Track
from leaderboard.exports import latex_escape
from tests.factories import PERFECT_RUN, WORKED_RUN, publish, rival, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


@pytest.fixture
def published(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> Track:
    upload(participant, closed, WORKED_RUN, on_commit)
    user, _ = rival(bakeoff, closed, "R&D_Team")
    upload(user, closed, PERFECT_RUN, on_commit)
    publish(bakeoff)
    return closed


def test_csv_has_the_table_with_3_and_4_decimals(anonymous: Client, published: Track) -> None:
    rows = list(csv.DictReader(io.StringIO(anonymous.get(TRACK + "results.csv").content.decode())))
    assert [(r["rank"], r["site"], r["name"]) for r in rows] == [
        ("1", "S02", "R&D_Team"),
        ("2", "S01", "Team A"),
        ("", "BASE", ""),
        ("", "TOP", ""),
    ]
    team_a = rows[1]
    assert (team_a["R"], team_a["P"], team_a["F"]) == ("0.786", "0.846", "0.815")
    assert team_a["cr"] == "0.2193" and len(team_a["cp"].split(".")[1]) == 4
    assert (team_a["words"], team_a["test_words"], team_a["correct"]) == ("14", "13", "11")
    assert team_a["signature"].startswith("scorer:")


def test_json_carries_each_scores_signature(anonymous: Client, published: Track) -> None:
    data = json.loads(anonymous.get(TRACK + "results.json").content)
    assert data["track"] == "pk-closed" and data["gold_version"] == 1
    for row in data["rows"]:
        signature = row["score"]["signature"]
        assert signature["gold_checksum"] == data["gold_canonical_checksum"]
        assert signature["scorer_version"] and signature["dictionary_checksum"]
    assert [row["rank"] for row in data["rows"]] == [1, 2, None, None]
    assert data["not_significantly_different"] == [["S02 run 1", "S01 run 1"]]


def test_latex_is_a_booktabs_table_in_the_sighan_layout(
    anonymous: Client, published: Track
) -> None:
    answer = anonymous.get(TRACK + "results.tex")
    tex = answer.content.decode()
    assert "attachment" in answer["Content-Disposition"]
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert "R\\&D\\_Team" in tex
    assert "1 & S02 & R\\&D\\_Team & 1 & 14 & 1.000 & 0.0000" in tex
    assert "except: S02 run 1 and S01 run 1." in tex


def test_latex_escapes_every_special_character() -> None:
    assert latex_escape("a_b&c%d$e#f{g}h~i^j\\k") == (
        "a\\_b\\&c\\%d\\$e\\#f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k"
    )


def test_an_unknown_track_is_not_found(anonymous: Client, published: Track) -> None:
    assert anonymous.get("/bakeoffs/b2026/tracks/zz-closed/results.csv").status_code == 404
    assert Track.objects.count() == 2
