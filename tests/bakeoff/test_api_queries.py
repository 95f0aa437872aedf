"""The API's list of submissions is paginated, and a page costs the same number of queries however
many runs the track holds."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from bakeoff.models import Bakeoff, Track
from leaderboard.models import ResultsVersion
from tests.factories import PERFECT_RUN, WORKED_RUN, make_site, make_user, publish
from tests.hints import OnCommit

from .test_api import URL, api, post, run_file

pytestmark = pytest.mark.django_db

# Authentication (token and user), the track (with whether the user organises its bakeoff, as a
# page finds it: access.bakeoff_track_or_404), the viewer (the user's sites with their
# registrations), the count, the page of submissions, and their current scores (one query for the
# page).
QUERIES = 6


def list_page(client: APIClient, query: str = "") -> tuple[int, dict[str, Any]]:
    with CaptureQueriesContext(connection) as captured:
        listed = client.get(URL + query)
    assert listed.status_code == 200
    body: dict[str, Any] = listed.json()
    return len(captured), body


def add_sites(bakeoff: Bakeoff, closed: Track, on_commit: OnCommit, names: str) -> None:
    for name in names:
        member = make_user(f"member-{name}")
        make_site(bakeoff, member, [closed], name=f"Site {name}")
        uploader = api(member)
        with on_commit():
            post(uploader, run_file(PERFECT_RUN))
            post(uploader, run_file(WORKED_RUN))


def test_a_page_takes_a_fixed_number_of_queries(
    organiser: User, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    client = api(organiser)
    found, body = list_page(client)
    assert (found, body["count"], len(body["results"])) == (QUERIES, 2, 2)  # BASE and TOP
    add_sites(bakeoff, closed, on_commit, "ABC")
    found, body = list_page(client)
    assert (found, body["count"], len(body["results"])) == (QUERIES, 8, 8)
    runs = [item for item in body["results"] if item["site"] not in ("BASE", "TOP")]
    assert len(runs) == 6 and all("scores" in run for run in runs)


def test_pages_cover_every_run_once(
    organiser: User, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    add_sites(bakeoff, closed, on_commit, "ABCD")
    client = api(organiser)
    seen: list[int] = []
    query = "?page_size=3"
    for _ in range(10):  # 10 runs in pages of 3: four pages, then no next
        found, body = list_page(client, query)
        assert found == QUERIES
        seen += [item["id"] for item in body["results"]]
        if body["next"] is None:
            break
        query = body["next"][body["next"].index("?") :]
    assert body["count"] == 10
    assert len(seen) == len(set(seen)) == 10


def test_a_page_beyond_the_last_is_a_404_in_json(organiser: User) -> None:
    answer = api(organiser).get(URL + "?page=9")
    assert answer.status_code == 404
    assert "detail" in answer.json()


def test_a_participants_page_takes_as_many_queries_as_an_organisers(
    bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    add_sites(bakeoff, closed, on_commit, "AB")
    client = APIClient()
    client.force_authenticate(User.objects.get(username="member-A"))
    found, body = list_page(client)
    assert body["count"] == 4  # its own two runs, BASE and TOP
    assert found <= QUERIES


def test_after_publication_a_page_takes_one_query_more_however_many_runs(
    organiser: User, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    # the newest results version's frozen track, read once for the page
    add_sites(bakeoff, closed, on_commit, "A")
    with on_commit():
        publish(bakeoff)
    client = api(organiser)
    found, body = list_page(client)
    assert (found, body["count"]) == (QUERIES + 1, 4)
    assert all(item["results_version"] == 1 for item in body["results"])
    Bakeoff.objects.filter(pk=bakeoff.pk).update(  # open again, for two more sites
        results_published=None, submission_deadline=timezone.now() + timedelta(days=1)
    )
    ResultsVersion.objects.filter(bakeoff=bakeoff).delete()
    bakeoff.refresh_from_db()
    add_sites(bakeoff, closed, on_commit, "BC")
    with on_commit():
        publish(bakeoff)
    found, body = list_page(client)
    assert (found, body["count"]) == (QUERIES + 1, 8)
    runs = [item for item in body["results"] if item["site"] not in ("BASE", "TOP")]
    assert all("scores" in run and "live_scores" in run for run in runs)
