"""Run ids tell nobody how many runs others stored: a site that uploads twice sees two random
ids, not a gap that counts its rivals' runs; and a tie on F still stands in the order the runs
arrived, whatever their ids (issue 24, item 7)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff.models import FIRST_RUN_ID, LAST_RUN_ID, Bakeoff, Site, Track
from leaderboard.models import TrackStanding
from tests.factories import RUNS, WORKED_RUN, rival, upload
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db


def test_a_site_uploading_twice_cannot_count_the_runs_stored_in_between(
    participant: User,
    site: Site,
    closed: Track,
    bakeoff: Bakeoff,
    on_commit: OnCommit,
    client_for: ClientFor,
) -> None:
    first = upload(participant, closed, RUNS[1], on_commit)
    rivals = [rival(bakeoff, closed, f"Rival{n}") for n in range(3)]
    for user, _ in rivals:
        upload(user, closed, RUNS[2], on_commit)
    second = upload(participant, closed, RUNS[2], on_commit)
    ids = [first.pk, second.pk]
    assert all(FIRST_RUN_ID <= pk < LAST_RUN_ID for pk in ids)
    # Sequential ids would differ by exactly the three rivals' runs plus one.
    assert abs(second.pk - first.pk) != 4
    # The ids are the addresses: the site's own run pages answer under them.
    page = client_for(participant).get(f"/bakeoffs/{bakeoff.slug}/submissions/{second.pk}/")
    assert page.status_code == 200


def test_runs_tied_on_f_stand_in_the_order_they_arrived(
    participant: User, site: Site, closed: Track, bakeoff: Bakeoff, on_commit: OnCommit
) -> None:
    arrived = [upload(participant, closed, WORKED_RUN, on_commit)]
    for n in range(4):
        user, _ = rival(bakeoff, closed, f"Tied{n}")
        arrived.append(upload(user, closed, WORKED_RUN, on_commit))
    standings = list(
        TrackStanding.objects.filter(track=closed, submission__kind="run").order_by("position")
    )
    assert [s.submission_id for s in standings] == [run.pk for run in arrived]
    assert len({s.rank for s in standings}) == 1
