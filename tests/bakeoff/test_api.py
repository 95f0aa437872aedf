"""The REST API: token auth, 201 with id/status/url, 4xx with the validation error as JSON."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from pytest_django import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff.models import Bakeoff, Site, Track
from tests.factories import PERFECT_RUN, RUNS, SPLIT_RUN, make_site, make_user
from tests.hints import ApiAnswer, OnCommit

pytestmark = pytest.mark.django_db

URL = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/"


def api(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def run_file(text: str = PERFECT_RUN, encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile("run.txt", text.encode(encoding), content_type="text/plain")


def post(client: APIClient, data: SimpleUploadedFile) -> ApiAnswer:
    return client.post(URL, {"file": data}, format="multipart")


def test_it_accepts_a_run_and_scores_it(participant: User, site: Site, on_commit: OnCommit) -> None:
    client = api(participant)
    with on_commit():
        answer = post(client, run_file())
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) >= {"id", "status", "url"}
    assert body["status"] == "queued"
    scored = client.get(body["url"]).json()
    assert scored["status"] == "scored"
    scores = scored["scores"]
    assert scores["f"] == 1.0
    assert {
        "precision",
        "recall",
        "oov_rate",
        "oov_recall",
        "iv_recall",
        "true_words",
        "test_words",
        "signature",
    } <= set(scores)


def test_it_requires_a_token(site: Site) -> None:
    assert post(api(), run_file()).status_code == 401


def test_it_rejects_a_revoked_token(participant: User, site: Site) -> None:
    client = api(participant)
    Token.objects.filter(user=participant).delete()
    assert post(client, run_file()).status_code == 401


def test_it_rejects_dropped_line_with_line_and_column(participant: User, site: Site) -> None:
    answer = post(api(participant), run_file("".join(PERFECT_RUN.splitlines(True)[:2])))
    assert answer.status_code == 400
    body = answer.json()
    assert body["line"] == 3
    assert {"detail", "column", "expected", "found"} <= set(body)


def test_it_rejects_wrong_encoding(participant: User, site: Site) -> None:
    answer = post(api(participant), run_file(encoding="gb18030"))
    assert answer.status_code == 400
    assert answer.json()["line"] == 1


def test_it_rejects_late_upload(participant: User, site: Site, bakeoff: Bakeoff) -> None:
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=1)
    bakeoff.test_released = bakeoff.submission_deadline - timedelta(days=1)
    bakeoff.save()
    answer = post(api(participant), run_file())
    assert answer.status_code == 403
    assert "deadline" in answer.json()["detail"]


def test_it_rejects_track_not_registered(participant: User, site: Site) -> None:
    url = URL.replace("pk-closed", "pk-open")
    answer = api(participant).post(url, {"file": run_file()}, format="multipart")
    assert answer.status_code == 403


def test_it_rejects_run_over_the_limit(participant: User, site: Site, closed: Track) -> None:
    client = api(participant)
    for text in RUNS[: closed.max_runs]:
        assert post(client, run_file(text)).status_code == 201
    answer = post(client, run_file(SPLIT_RUN))
    assert answer.status_code == 409


def test_it_answers_400_without_a_file(participant: User, site: Site) -> None:
    assert api(participant).post(URL, {}, format="multipart").status_code == 400


def test_it_answers_404_for_an_unknown_track(participant: User, site: Site) -> None:
    url = URL.replace("pk-closed", "xx-closed")
    assert api(participant).post(url, {"file": run_file()}, format="multipart").status_code == 404


def test_it_hides_another_teams_submission(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track
) -> None:
    url = post(api(participant), run_file()).json()["url"]
    rival = make_user("rival")
    make_site(bakeoff, rival, [closed], name="Rivals")
    assert api(rival).get(url).status_code == 404


def test_it_lists_only_own_runs_and_references(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track
) -> None:
    post(api(participant), run_file())
    rival = make_user("rival")
    make_site(bakeoff, rival, [closed], name="Rivals")
    listed = api(rival).get(URL).json()
    assert listed["count"] == 2
    assert sorted(item["site"] for item in listed["results"]) == ["BASE", "TOP"]


def test_it_hides_scores_until_publication_when_the_bakeoff_says_so(
    participant: User, site: Site, bakeoff: Bakeoff, on_commit: OnCommit
) -> None:
    bakeoff.hide_scores_until_publication = True
    bakeoff.save()
    client = api(participant)
    with on_commit():
        url = post(client, run_file()).json()["url"]
    body = client.get(url).json()
    assert body["status"] == "scored"
    assert "scores" not in body


def test_it_refuses_a_body_over_the_cap_before_reading_it(
    participant: User, site: Site, settings: Settings
) -> None:
    settings.BAKEOFF_MAX_UPLOAD_BYTES = 1
    big = run_file("x" * 100_000)
    answer = post(api(participant), big)
    assert answer.status_code == 413
    assert "limit" in answer.json()["detail"]


def test_it_refuses_a_file_over_the_cap(participant: User, site: Site, settings: Settings) -> None:
    settings.BAKEOFF_MAX_UPLOAD_BYTES = 10
    answer = post(api(participant), run_file())
    assert answer.status_code == 413
