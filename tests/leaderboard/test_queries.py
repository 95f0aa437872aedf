"""Pages and exports make a fixed number of queries, whatever the number of runs."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from bakeoff.models import Bakeoff, Site, Track
from tests.factories import make_scored_runs, publish
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
PATHS = (
    TRACK,
    TRACK + "?sort=-recall",
    TRACK + "results.json",
    TRACK + "results.csv",
    TRACK + "results.tex",
    TRACK + "f.svg",
    "/bakeoffs/b2026/results/",
    "/bakeoffs/b2026/results/f.svg",
)


def queries(client: Client, path: str) -> int:
    client.get(path)  # the session and the user are loaded once, like any page after the first
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def counts(client: Client, bakeoff: Bakeoff, track: Track, runs: int) -> dict[str, int]:
    make_scored_runs(track, runs)
    return {path: queries(client, path) for path in PATHS}


@pytest.mark.parametrize(
    ("persona", "published"),
    [("organiser", False), ("participant", False), ("participant", True), ("anonymous", True)],
)
def test_the_number_of_queries_does_not_grow_with_the_runs(
    request: pytest.FixtureRequest,
    client_for: ClientFor,
    bakeoff: Bakeoff,
    closed: Track,
    site: Site,
    persona: str,
    published: bool,
) -> None:
    if published:
        publish(bakeoff)
    user = None if persona == "anonymous" else request.getfixturevalue(persona)
    client = client_for(user)
    at_3 = counts(client, bakeoff, closed, 3)
    at_30 = counts(client, bakeoff, closed, 27)  # 3 + 27 = 30 runs
    assert at_30 == at_3
    assert max(at_3.values()) <= 10


def test_the_track_page_makes_the_same_queries_at_3_and_30_runs(
    client_for: ClientFor,
    organiser: User,
    bakeoff: Bakeoff,
    closed: Track,
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    client = client_for(organiser)
    make_scored_runs(closed, 3)
    with CaptureQueriesContext(connection) as at_3:
        client.get(TRACK)
    make_scored_runs(closed, 27)
    with django_assert_num_queries(len(at_3)):
        client.get(TRACK)
