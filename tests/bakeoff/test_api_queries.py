"""The API's list of submissions costs the same number of queries however many runs it lists."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from bakeoff.models import Bakeoff, Track
from tests.factories import PERFECT_RUN, WORKED_RUN, make_site, make_user
from tests.hints import OnCommit

from .test_api import URL, api, post, run_file

pytestmark = pytest.mark.django_db

# Authentication (token and user), the track, the organiser check, the submissions, their
# current scores (one query for all the rows), and the viewer's organiser check again.
QUERIES = 7


def queries_to_list(client: APIClient) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        listed = client.get(URL)
    assert listed.status_code == 200
    return len(captured), len(listed.json())


def test_listing_submissions_takes_a_fixed_number_of_queries(
    organiser: User, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    client = api(organiser)
    assert queries_to_list(client) == (QUERIES, 2)  # BASE and TOP
    for name in ("A", "B", "C"):
        member = make_user(f"member-{name}")
        make_site(bakeoff, member, [closed], name=f"Site {name}")
        uploader = api(member)
        with on_commit():
            post(uploader, run_file(PERFECT_RUN))
            post(uploader, run_file(WORKED_RUN))
    found, rows = queries_to_list(client)
    assert rows == 8
    assert found == QUERIES
    runs = [item for item in client.get(URL).json() if item["site"] not in ("BASE", "TOP")]
    assert len(runs) == 6 and all("scores" in run for run in runs)
