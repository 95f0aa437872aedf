"""Plots are SVG built on the server: well-formed, escaped, BASE and TOP marked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Site, Track
from leaderboard import plots
from tests.factories import PERFECT_RUN, WORKED_RUN, publish, rival, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str | bytes) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def titles(root: ET.Element) -> list[str | None]:
    return [t.text for t in root.iter(SVG + "title")]


def test_systems_by_track_marks_base_and_top() -> None:
    series = [
        plots.Series(
            "PKc",
            [
                plots.Point("S01 run 1", 0.95),
                plots.Point("BASE", 0.87, plots.BASE),
                plots.Point("TOP", 0.99, plots.TOP),
            ],
        ),
        plots.Series("MSRc", [plots.Point("S01 run 1", None)]),
    ]
    root = parse(plots.systems_by_track(series, title="F", axis="F"))
    assert "S01 run 1: 0.950" in titles(root)
    assert "BASE: 0.870" in titles(root) and "TOP: 0.990" in titles(root)
    assert len(list(root.iter(SVG + "circle"))) == 2  # the run, and the legend's dot


def test_confidence_bars_draw_an_interval_per_system() -> None:
    points = [plots.Point("S01 run 1", 0.9, plots.RUN, 0.01), plots.Point("TOP", 1.0, plots.TOP)]
    root = parse(plots.confidence_bars(points, title="PKc"))
    assert "S01 run 1: F = 0.900 ± 0.0100" in titles(root)


def test_labels_are_escaped() -> None:
    root = parse(plots.confidence_bars([plots.Point("<script>&", 0.5)], title="a<b"))
    assert titles(root)[0] == "a<b"
    assert not list(root.iter("script"))


def test_empty_plots_say_so() -> None:
    assert "No scored run." in plots.confidence_bars([], title="x")
    assert "No track." in plots.systems_by_track([], title="x", axis="F")


def test_the_pages_embed_the_plots_without_javascript(
    anonymous: Client,
    participant: User,
    site: Site,
    bakeoff: Bakeoff,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    user, _ = rival(bakeoff, closed)
    upload(user, closed, PERFECT_RUN, on_commit)
    publish(bakeoff)
    summary = anonymous.get("/bakeoffs/b2026/results/").content.decode()
    track = anonymous.get("/bakeoffs/b2026/tracks/pk-closed/").content.decode()
    # The track page: F with its interval, and the attribute profile (analysis).
    assert summary.count("<svg") == 2 and track.count("<svg") == 2
    # The one script of every page (static/bakeoff/reader.js: zones, countdowns) draws nothing.
    scripts = re.findall(r"<script[^>]*>", summary + track)
    assert set(scripts) == {'<script src="/static/bakeoff/reader.js" defer>'}
    for path in ("results/f.svg", "results/oov.svg", "tracks/pk-closed/f.svg"):
        answer = anonymous.get(f"/bakeoffs/b2026/{path}")
        assert answer["Content-Type"] == "image/svg+xml"
        root = parse(answer.content)
        assert any(t and t.startswith("S01 run 1") for t in titles(root))
