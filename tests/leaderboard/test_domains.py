"""Figures per domain on the run page, the track's table by domain, and in the exports; the same
rows for the same viewer as the track's table, in a fixed number of queries.

The bakeoff with PK labelled by domain and the participant's registered site is built once for
the module; the runs and the publication, by each test that needs them."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from bakeoff.models import Bakeoff, Score, Site, Track
from leaderboard.services import do_publish_erratum
from tests.factories import (
    PERFECT_RUN,
    WORKED_RUN,
    make_corpus,
    make_scored_runs,
    publish,
    rival,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, Registered, registered

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
DOMAINS = TRACK + "domains/"
LABELS = "news\nweibo\nnews\n"


def build_world(on_commit: OnCommit) -> Registered:
    """PK with its lines labelled news, weibo, news, BASE and TOP scored; the participant's site
    registered for the closed track; no run yet."""
    world = registered(on_commit, domains=LABELS)
    # No page read before a test may be served to it from the cache as if it were fresh.
    cache.clear()
    return world


# Every test here starts from this world, and what it adds (runs, another corpus, a publication,
# an erratum, new labels) is rolled back (tests/module_world.py).
built, mine = module_world("domains", lambda: build_world(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = map(taken_from_world, SHARED)


@pytest.fixture
def published(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> Track:
    upload(participant, closed, WORKED_RUN, on_commit)
    user, _ = rival(bakeoff, closed, "R&D_Team")
    upload(user, closed, PERFECT_RUN, on_commit)
    publish(bakeoff)
    return closed


def _cells(html: str, label: str) -> list[str]:
    """The cells of the table row whose first cell is ``label``."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        found = re.findall(r"<td[^>]*>(.*?)</td>", row)
        cells = [unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in found]
        if cells and cells[0] == label:
            return cells
    raise AssertionError(f"no row {label}")


def test_the_run_page_shows_each_domain_with_its_intervals(
    anonymous: Client, published: Track
) -> None:
    team_a = published.submissions.get(site__name="Team A")
    html = anonymous.get(f"{TRACK}runs/{team_a.pk}/").content.decode()
    assert "Figures per domain" in html
    # news: lines 1 and 3, N 10, N' 9, c 7: R 0.700 ± 2·√(0.7·0.3/10) = 0.2898, P 0.778
    assert _cells(html, "news") == [
        "news", "2", "10", "9", "7", "0.700", "0.2898", "0.778", "0.2629", "0.737",
        "0.100", "1.000", "0.667",
    ]  # fmt: skip
    assert _cells(html, "weibo")[1:10] == [
        "1",
        "4",
        "4",
        "4",
        "1.000",
        "0.0000",
        "1.000",
        "0.0000",
        "1.000",
    ]


def test_the_track_table_by_domain_has_a_sortable_column_per_domain(
    anonymous: Client, published: Track
) -> None:
    track_page = anonymous.get(TRACK).content.decode()
    assert 'href="/bakeoffs/b2026/tracks/pk-closed/domains/"' in track_page
    html = anonymous.get(DOMAINS).content.decode()
    assert "news F" in html and "weibo F" in html
    assert _cells(html, "1") == ["1", "S02", "R&D_Team", "1", "1.000", "1.000", "1.000"]
    assert _cells(html, "2") == ["2", "S01", "Team A", "1", "0.815", "0.737", "1.000"]
    # sorted by news, worst first: Team A (0.737), BASE, then TOP and R&D_Team
    ascending = anonymous.get(DOMAINS + "?sort=domain_0").content.decode()
    order = re.findall(r'<a href="[^"]*runs/\d+/">([^<]+)</a>', ascending)
    assert order[0] == "S01"
    recall = anonymous.get(DOMAINS + "?figure=recall").content.decode()
    assert "news R" in recall and _cells(recall, "2")[5] == "0.700"


def test_a_corpus_without_domains_has_no_table_by_domain(
    anonymous: Client, bakeoff: Bakeoff, on_commit: OnCommit
) -> None:
    with on_commit():
        make_corpus(bakeoff, abbreviation="MSR")
    publish(bakeoff)
    assert anonymous.get("/bakeoffs/b2026/tracks/msr-closed/domains/").status_code == 404
    assert "domains/" not in anonymous.get("/bakeoffs/b2026/tracks/msr-closed/").content.decode()


def test_exports_carry_the_domains(anonymous: Client, published: Track) -> None:
    data = json.loads(anonymous.get(TRACK + "results.json").content)
    assert data["domains"] == [{"domain": "news", "lines": 2}, {"domain": "weibo", "lines": 1}]
    team_a = next(row for row in data["rows"] if row["name"] == "Team A")
    news, weibo = team_a["score"]["domains"]
    assert (news["domain"], news["correct"], weibo["correct"]) == ("news", 7, 4)
    assert news["correct"] + weibo["correct"] == team_a["score"]["correct"]
    assert team_a["score"]["domain_labels"] == data["domain_labels"]
    rows = list(csv.DictReader(io.StringIO(anonymous.get(TRACK + "results.csv").content.decode())))
    team_a_csv = next(row for row in rows if row["name"] == "Team A")
    assert (team_a_csv["F[news]"], team_a_csv["cr[news]"], team_a_csv["R_oov[weibo]"]) == (
        "0.737",
        "0.2898",
        "1.000",
    )
    tex = anonymous.get(TRACK + "results.tex").content.decode()
    assert "F per domain on the PK-closed track" in tex or "F per domain on the" in tex
    assert "2 & S01 & Team A & 1 & 0.815 & 0.737 & 1.000 \\\\" in tex


def test_before_publication_the_table_by_domain_shows_what_the_track_table_shows(
    client_for: ClientFor,
    participant: User,
    site: Site,
    bakeoff: Bakeoff,
    closed: Track,
    on_commit: OnCommit,
    outsider: User,
    anonymous: Client,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    user, _ = rival(bakeoff, closed, "Rivals")
    theirs = upload(user, closed, PERFECT_RUN, on_commit)
    own = client_for(participant).get(DOMAINS).content.decode()
    assert "S01" in own and "BASE" in own and "Rivals" not in own
    assert anonymous.get(DOMAINS).content.decode().count("<tr class=") == 0
    assert "not published yet" in client_for(outsider).get(DOMAINS).content.decode()
    assert client_for(participant).get(f"{TRACK}runs/{theirs.pk}/").status_code == 404
    bakeoff.hide_scores_until_publication = True
    bakeoff.save()
    hidden = client_for(participant).get(DOMAINS).content.decode()
    assert "S01" not in hidden and "BASE" in hidden


def _with_domains(track: Track) -> None:
    """Figures per domain for the synthetic scores (which make_scored_runs stores without)."""
    for score in Score.objects.filter(submission__track=track).exclude(result__has_key="domains"):
        score.result = {
            **score.result,
            "domains": [
                {"domain": "news", "f": score.f, "recall": score.recall},
                {"domain": "weibo", "f": score.f, "recall": score.recall},
            ],
        }
        score.save(update_fields=["result"])


def _queries(client: Client, path: str) -> int:
    client.get(path)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    ("persona", "published"),
    [("organiser", False), ("participant", False), ("participant", True), ("anonymous", True)],
)
def test_the_table_by_domain_makes_a_fixed_number_of_queries(
    request: pytest.FixtureRequest,
    client_for: ClientFor,
    bakeoff: Bakeoff,
    closed: Track,
    site: Site,
    persona: str,
    published: bool,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    """Before publication from the live standings; after it from the frozen results version (the
    300 runs published as an erratum of the version with 3)."""
    user = None if persona == "anonymous" else request.getfixturevalue(persona)
    client = client_for(user)
    paths = (DOMAINS, DOMAINS + "?sort=-domain_1", DOMAINS + "?figure=recall")
    make_scored_runs(closed, 3)
    _with_domains(closed)
    if published:
        publish(bakeoff)
    at_3 = [_queries(client, path) for path in paths]
    make_scored_runs(closed, 297)
    _with_domains(closed)
    if published:
        do_publish_erratum(bakeoff, note="297 more runs")
    at_300 = [_queries(client, path) for path in paths]
    assert at_300 == at_3
    client.get(DOMAINS)
    with django_assert_max_num_queries(10):
        html = client.get(DOMAINS).content.decode()
    if published or persona == "organiser":
        assert html.count("<tr class=") == 302  # 300 runs, BASE and TOP
    else:  # before publication a participant sees none of the other sites' runs
        assert "Synthetic" not in html and html.count("<tr class=") <= 2
    print(f"queries of the table by domain, {persona} {published=}: {at_3} at 3 and 300 runs")


def test_the_table_by_domain_speaks_chinese(anonymous: Client, published: Track) -> None:
    html = anonymous.get(DOMAINS, headers={"accept-language": "zh-CN"}).content.decode()
    assert "按领域" in html and "显示：" in html
    html = anonymous.get(DOMAINS, headers={"accept-language": "zh-TW"}).content.decode()
    assert "按領域" in html and "顯示：" in html


def test_a_published_version_keeps_its_domains_when_the_labels_change(
    anonymous: Client, published: Track, on_commit: OnCommit
) -> None:
    from bakeoff import services

    with on_commit():
        services.do_set_domain_labels(published.corpus, b"a\na\nb\n")
    live = published.submissions.get(site__name="Team A").current_score()
    assert live is not None and [d["domain"] for d in live.result["domains"]] == ["a", "b"]
    html = anonymous.get(DOMAINS).content.decode()  # the published version, frozen
    assert "news F" in html and "weibo F" in html and "a F" not in html
    assert _cells(html, "2") == ["2", "S01", "Team A", "1", "0.815", "0.737", "1.000"]
    data = json.loads(anonymous.get(TRACK + "results.json").content)
    assert [d["domain"] for d in data["domains"]] == ["news", "weibo"]
    header = anonymous.get(TRACK + "results.csv").content.decode().splitlines()[0]
    assert "F[news]" in header and "F[a]" not in header
