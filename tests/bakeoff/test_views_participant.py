"""The participant's pages: register, upload, see the run scored, be refused with a reason."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from bakeoff.models import Bakeoff, Corpus, Site, Submission
from tests.factories import PERFECT_RUN, track
from tests.hints import Answer, ClientFor, OnCommit

pytestmark = pytest.mark.django_db


def run_file(text: str = PERFECT_RUN, encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile("run.txt", text.encode(encoding))


def upload(
    client: Client, track_slug: str = "pk-closed", data: SimpleUploadedFile | None = None
) -> Answer:
    return client.post(f"/bakeoffs/b2026/tracks/{track_slug}/upload/", {"file": data or run_file()})


def test_anonymous_sees_the_bakeoff_page_with_times_in_both_zones(
    anonymous: Client, corpus: Corpus
) -> None:
    page = anonymous.get("/bakeoffs/b2026/").content.decode()
    assert "Asia/Shanghai" in page and "UTC" in page
    assert "PKc" in page


def test_anonymous_is_sent_to_log_in_to_upload(anonymous: Client, corpus: Corpus) -> None:
    answer = upload(anonymous)
    assert answer.status_code == 302
    assert "/accounts/login/" in answer["Location"]


def test_a_participant_registers_a_site(
    client_for: ClientFor, participant: User, corpus: Corpus
) -> None:
    answer = client_for(participant).post(
        "/bakeoffs/b2026/register/",
        {
            "name": "Team Z",
            "institution": "Zed Institute",
            "country": "CN",
            "commercial_product": "no",
            "tracks": [track(corpus).pk],
        },
    )
    assert answer.status_code == 302
    site = Site.objects.get(name="Team Z")
    assert not site.commercial_product
    assert site.registrations.get().status == "pending"


def test_registration_shows_why_it_is_refused(
    client_for: ClientFor, participant: User, corpus: Corpus
) -> None:
    page = (
        client_for(participant)
        .post(
            "/bakeoffs/b2026/register/",
            {
                "name": "Team Z",
                "institution": "Zed Institute",
                "country": "CN",
                "commercial_product": "yes",
                "tracks": [track(corpus, "open").pk],
            },
        )
        .content.decode()
    )
    assert "extra resources" in page
    assert not Site.objects.exists()


def test_registration_requires_the_commercial_question(
    client_for: ClientFor, participant: User, corpus: Corpus
) -> None:
    page = client_for(participant).post(
        "/bakeoffs/b2026/register/",
        {
            "name": "Team Z",
            "institution": "Zed Institute",
            "country": "CN",
            "tracks": [track(corpus).pk],
        },
    )
    assert page.status_code == 200
    assert not Site.objects.exists()


def test_a_participant_uploads_and_sees_the_run_scored(
    client_for: ClientFor, participant: User, site: Site, on_commit: OnCommit
) -> None:
    client = client_for(participant)
    with on_commit():
        answer = upload(client)
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Scored" in page
    assert "1.000" in page


def test_the_upload_page_refuses_a_late_upload_with_the_reason(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    bakeoff.submission_deadline = timezone.now() - timedelta(seconds=1)
    bakeoff.save()
    page = upload(client_for(participant)).content.decode()
    assert "deadline" in page
    assert not Submission.objects.filter(kind="run").exists()


def test_the_upload_page_refuses_a_wrong_encoding_with_the_reason(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    page = upload(client_for(participant), data=run_file(encoding="gb18030")).content.decode()
    assert "do not decode as utf-8" in page


def test_the_upload_page_refuses_a_dropped_line_with_the_reason(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    short = "".join(PERFECT_RUN.splitlines(True)[:2])
    page = upload(client_for(participant), data=run_file(short)).content.decode()
    assert "line 3" in page


def test_the_upload_page_refuses_a_track_not_registered(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    page = upload(client_for(participant), "pk-open").content.decode()
    assert "not registered" in page


def test_the_corpus_page_offers_released_data_only(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    page = client_for(participant).get("/bakeoffs/b2026/corpora/PK/").content.decode()
    assert "download/test_text/" in page
    assert "download/gold/" not in page
