"""Registration through the API (docs/phases.md): the form's rules and refusals, as JSON; after
publication, registrations for post-bakeoff runs are approved at once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff.models import Bakeoff, Corpus, RegistrationStatus, Site, Track
from tests.factories import PERFECT_RUN, make_user, publish
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

URL = "/api/bakeoffs/b2026/registrations/"


def api(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_it_registers_a_site_for_tracks(participant: User, corpus: Corpus) -> None:
    answer = api(participant).post(
        URL,
        {"name": "Team B", "institution": "Fudan", "country": "CN", "tracks": ["pk-closed"]},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["name"] == "Team B"
    assert body["registrations"] == [
        {"track": "pk-closed", "status": "pending", "post_bakeoff": False}
    ]


def test_it_refuses_an_own_institution_corpus_as_json(participant: User, corpus: Corpus) -> None:
    answer = api(participant).post(
        URL,
        {"name": "Team B", "institution": "Peking  University", "tracks": ["pk-closed"]},
        format="json",
    )
    assert answer.status_code == 400
    assert "your own institution" in answer.json()["detail"]
    assert not Site.objects.filter(name="Team B").exists()


def test_it_refuses_an_open_track_without_a_statement(participant: User, corpus: Corpus) -> None:
    answer = api(participant).post(
        URL, {"name": "Team B", "institution": "Fudan", "tracks": ["pk-open"]}, format="json"
    )
    assert answer.status_code == 400
    assert "statement of the extra resources" in answer.json()["detail"]


def test_it_refuses_an_unknown_track(participant: User, corpus: Corpus) -> None:
    answer = api(participant).post(
        URL, {"name": "Team B", "institution": "Fudan", "tracks": ["zz-closed"]}, format="json"
    )
    assert answer.status_code == 400
    assert "zz-closed" in answer.json()["detail"]


def test_it_requires_a_token(corpus: Corpus) -> None:
    assert api().post(URL, {"tracks": ["pk-closed"]}, format="json").status_code == 401


def test_after_publication_it_registers_for_post_bakeoff_runs_and_approves_at_once(
    bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    publish(bakeoff)
    client = api(make_user("nina"))
    refused = client.post(
        URL, {"name": "Late", "institution": "Fudan", "tracks": ["pk-closed"]}, format="json"
    )
    assert refused.status_code == 400
    assert "not open for post-bakeoff runs" in refused.json()["detail"] or (
        "only for tracks open" in refused.json()["detail"]
    )
    closed.post_bakeoff_open = True
    closed.save()
    answer = client.post(
        URL, {"name": "Late", "institution": "Fudan", "tracks": ["pk-closed"]}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["registrations"] == [
        {"track": "pk-closed", "status": RegistrationStatus.APPROVED, "post_bakeoff": True}
    ]
    assert answer.json()["site"].startswith("S")
    # a script registers, then uploads
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    with on_commit():
        uploaded = client.post(
            "/api/bakeoffs/b2026/tracks/pk-closed/submissions/",
            {"file": run, "phase": "post_bakeoff"},
            format="multipart",
        )
    assert uploaded.status_code == 201, uploaded.content
    scored = client.get(uploaded.json()["url"]).json()
    assert scored["phase"] == "post_bakeoff" and scored["official"] is False
    assert scored["scores"]["f"] == 1.0
    test_run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    late_test = client.post(
        "/api/bakeoffs/b2026/tracks/pk-closed/submissions/", {"file": test_run}, format="multipart"
    )
    assert late_test.status_code == 403  # the test phase is over


def test_after_publication_own_institution_is_still_refused(
    bakeoff: Bakeoff, closed: Track
) -> None:
    publish(bakeoff)
    closed.post_bakeoff_open = True
    closed.save()
    answer = api(make_user("nina")).post(
        URL,
        {"name": "Late", "institution": "peking university", "tracks": ["pk-closed"]},
        format="json",
    )
    assert answer.status_code == 400
    assert "your own institution" in answer.json()["detail"]


def test_an_unknown_phase_is_refused(participant: User, site: Site) -> None:
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    answer = api(participant).post(
        "/api/bakeoffs/b2026/tracks/pk-closed/submissions/",
        {"file": run, "phase": "practice"},
        format="multipart",
    )
    assert answer.status_code == 400
    assert answer.json()["phases"] == ["test", "development", "post_bakeoff"]
