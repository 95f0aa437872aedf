"""A run's system description in every phase (docs/phases.md): kept from the page's form and the
API's ``description`` for development and post-bakeoff runs as for test runs, required on an open
track in every phase, and shown with the post-bakeoff table as with the official one."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff import services
from bakeoff.errors import DescriptionMissing
from bakeoff.models import (
    AuditEntry,
    Bakeoff,
    Corpus,
    Site,
    Submission,
    SubmissionPhase,
    SubmissionStatus,
    Track,
)
from tests.factories import NEAR_PERFECT_RUN, WORKED_RUN, make_site, publish, track
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUN = "我们 在 上海 学 习\n明天 天气 很 好\n"
SYSTEM = "A CRF on character tags; the People's Daily 1998 lexicon as an extra resource."


@pytest.fixture
def open_track(corpus: Corpus) -> Track:
    return track(corpus, "open")


@pytest.fixture
def both(bakeoff: Bakeoff, participant: User, closed: Track, open_track: Track) -> Site:
    """The participant's site, approved for the closed and the open track."""
    return make_site(bakeoff, participant, [closed, open_track])


@pytest.fixture
def development(corpus: Corpus) -> None:
    services.do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())


@pytest.fixture
def after_publication(bakeoff: Bakeoff, closed: Track, open_track: Track, both: Site) -> None:
    """The results published and both tracks open for post-bakeoff runs."""
    publish(bakeoff)
    Track.objects.filter(pk__in=[closed.pk, open_track.pk]).update(post_bakeoff_open=True)
    closed.refresh_from_db()
    open_track.refresh_from_db()


def api(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def run_file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("run.txt", text.encode(), content_type="text/plain")


def through_the_page(
    client_for: ClientFor, user: User, track: Track, phase: str, text: str, description: str
) -> Submission:
    answer = client_for(user).post(
        f"/bakeoffs/b2026/tracks/{track.slug}/upload/",
        {"file": run_file(text), "phase": phase, "description": description},
    )
    assert answer.status_code == 302, answer.content.decode()
    return Submission.objects.get(site__members=user, track=track, phase=phase)


def through_the_api(user: User, track: Track, phase: str, text: str, description: str) -> Any:
    answer = api(user).post(
        f"/api/bakeoffs/b2026/tracks/{track.slug}/submissions/",
        {"file": run_file(text), "phase": phase, "description": description},
        format="multipart",
    )
    return answer


# Kept in every phase


def test_a_development_run_keeps_its_description_from_the_page(
    client_for: ClientFor, development: None, participant: User, both: Site, closed: Track
) -> None:
    run = through_the_page(
        client_for, participant, closed, SubmissionPhase.DEVELOPMENT, DEV_RUN, SYSTEM
    )
    assert run.description == SYSTEM
    page = client_for(participant).get(f"/bakeoffs/b2026/submissions/{run.pk}/").content.decode()
    assert "People&#x27;s Daily 1998 lexicon" in page


def test_a_development_run_keeps_its_description_from_the_api(
    development: None, participant: User, both: Site, closed: Track
) -> None:
    answer = through_the_api(participant, closed, SubmissionPhase.DEVELOPMENT, DEV_RUN, SYSTEM)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["description"] == SYSTEM
    assert Submission.objects.get(pk=answer.json()["id"]).description == SYSTEM


def test_a_post_bakeoff_run_keeps_its_description_from_the_page(
    client_for: ClientFor, after_publication: None, participant: User, open_track: Track
) -> None:
    run = through_the_page(
        client_for, participant, open_track, SubmissionPhase.POST_BAKEOFF, NEAR_PERFECT_RUN, SYSTEM
    )
    assert run.description == SYSTEM


def test_a_post_bakeoff_run_keeps_its_description_from_the_api(
    after_publication: None, participant: User, open_track: Track
) -> None:
    answer = through_the_api(
        participant, open_track, SubmissionPhase.POST_BAKEOFF, NEAR_PERFECT_RUN, f"  {SYSTEM}\n"
    )
    assert answer.status_code == 201, answer.json()
    assert Submission.objects.get(pk=answer.json()["id"]).description == SYSTEM  # trimmed


def test_the_accepted_run_is_recorded_with_its_description(
    development: None, participant: User, both: Site, closed: Track, on_commit: OnCommit
) -> None:
    with on_commit():
        run = services.submit_run(
            participant,
            closed,
            DEV_RUN.encode(),
            phase=SubmissionPhase.DEVELOPMENT,
            description=SYSTEM,
        )
    entry = AuditEntry.objects.get(action="run.accepted", details__run_number=run.run_number)
    assert entry.details["description"] == SYSTEM


# Required on an open track in every phase


def test_an_open_track_post_bakeoff_run_without_description_is_refused(
    after_publication: None, participant: User, open_track: Track
) -> None:
    with pytest.raises(DescriptionMissing, match="open track"):
        services.submit_run(
            participant, open_track, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )
    assert not Submission.objects.filter(track=open_track, site__isnull=False).exists()
    refused = AuditEntry.objects.get(action="run.refused")
    assert (refused.details["rule"], refused.details["phase"]) == ("description", "post_bakeoff")


def test_the_api_refuses_an_open_track_post_bakeoff_run_without_description(
    after_publication: None, participant: User, open_track: Track
) -> None:
    answer = through_the_api(
        participant, open_track, SubmissionPhase.POST_BAKEOFF, NEAR_PERFECT_RUN, ""
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "refused"
    assert "open track" in answer.json()["detail"]
    assert not Submission.objects.filter(track=open_track, site__isnull=False).exists()


def test_the_page_refuses_an_open_track_post_bakeoff_run_without_description_at_its_field(
    client_for: ClientFor, after_publication: None, participant: User, open_track: Track
) -> None:
    answer = client_for(participant).post(
        f"/bakeoffs/b2026/tracks/{open_track.slug}/upload/",
        {"file": run_file(NEAR_PERFECT_RUN), "phase": "post_bakeoff", "description": "  "},
    )
    assert answer.status_code == 200
    form = answer.context["form"]
    assert "open track" in " ".join(form.errors["description"])
    assert not Submission.objects.filter(track=open_track, site__isnull=False).exists()


def test_an_open_track_development_run_without_description_is_refused(
    development: None, participant: User, both: Site, open_track: Track
) -> None:
    with pytest.raises(DescriptionMissing):
        services.submit_run(
            participant, open_track, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT
        )


def test_a_closed_track_post_bakeoff_run_needs_no_description(
    after_publication: None, participant: User, closed: Track, on_commit: OnCommit
) -> None:
    with on_commit():
        run = services.submit_run(
            participant, closed, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )
    assert run.description == ""


# Shown where the official runs' descriptions are shown


@pytest.fixture
def described(
    after_publication: None, participant: User, open_track: Track, on_commit: OnCommit
) -> Submission:
    with on_commit():
        run = services.submit_run(
            participant,
            open_track,
            WORKED_RUN.encode(),
            phase=SubmissionPhase.POST_BAKEOFF,
            description=SYSTEM,
        )
    run.refresh_from_db()
    assert run.status == SubmissionStatus.SCORED, run.reason
    return run


def test_the_post_bakeoff_table_exports_carry_the_description(
    client_for: ClientFor, described: Submission
) -> None:
    base = f"/bakeoffs/b2026/tracks/{described.track.slug}/"
    anonymous = client_for(None)
    data = json.loads(anonymous.get(base + "results.json").content)
    [row] = data["post_bakeoff"]
    assert row["description"] == SYSTEM
    rows = list(csv.DictReader(io.StringIO(anonymous.get(base + "results.csv").content.decode())))
    [post_row] = [r for r in rows if r["phase"] == "post-bakeoff"]
    assert post_row["description"] == SYSTEM


def test_the_post_bakeoff_run_page_shows_the_description(
    client_for: ClientFor, described: Submission
) -> None:
    url = f"/bakeoffs/b2026/tracks/{described.track.slug}/runs/{described.pk}/"
    page = client_for(None).get(url).content.decode()
    assert "People&#x27;s Daily 1998 lexicon" in page
