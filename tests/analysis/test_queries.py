"""The track page, the run page and its analysis tab make a fixed number of queries, whatever
the number of runs."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bakeoff.models import Bakeoff, Site, Track
from tests.factories import WORKED_RUN, make_scored_runs, publish, upload
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


def queries(client: Client, path: str) -> int:
    client.get(path)  # the session and the user are loaded once, like any page after the first
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    ("persona", "published"), [("organiser", False), ("participant", False), ("anonymous", True)]
)
def test_the_number_of_queries_does_not_grow_with_the_runs(
    request: pytest.FixtureRequest,
    client_for: ClientFor,
    participant: User,
    bakeoff: Bakeoff,
    closed: Track,
    site: Site,
    on_commit: OnCommit,
    persona: str,
    published: bool,
) -> None:
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    base = closed.submissions.get(kind="baseline")
    if published:
        publish(bakeoff)
    user = None if persona == "anonymous" else request.getfixturevalue(persona)
    client = client_for(user)
    paths = (
        TRACK,
        f"{TRACK}runs/{mine.pk}/",
        f"{TRACK}runs/{mine.pk}/analysis/",
        f"{TRACK}runs/{mine.pk}/analysis/?with={base.pk}",
        "/bakeoffs/b2026/results/",
    )
    make_scored_runs(closed, 3)
    at_3 = {path: queries(client, path) for path in paths}
    make_scored_runs(closed, 27)
    at_30 = {path: queries(client, path) for path in paths}
    assert at_30 == at_3
    assert max(at_3.values()) <= 15
