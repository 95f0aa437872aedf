"""The participant's pages: register, upload, see the run scored, be refused with a reason."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from bakeoff.models import Site, Submission

from .factories import PERFECT_RUN, track

pytestmark = pytest.mark.django_db


def run_file(text=PERFECT_RUN, encoding="utf-8"):
    return SimpleUploadedFile("run.txt", text.encode(encoding))


def upload(client, track_slug="pk-closed", data=None):
    return client.post(f"/bakeoffs/b2026/tracks/{track_slug}/upload/", {"file": data or run_file()})


def test_anonymous_sees_the_bakeoff_page_with_times_in_both_zones(anonymous, corpus):
    page = anonymous.get("/bakeoffs/b2026/").content.decode()
    assert "Asia/Shanghai" in page and "UTC" in page
    assert "PKc" in page


def test_anonymous_is_sent_to_log_in_to_upload(anonymous, corpus):
    answer = upload(anonymous)
    assert answer.status_code == 302
    assert "/accounts/login/" in answer["Location"]


def test_a_participant_registers_a_site(client_for, participant, corpus):
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


def test_registration_shows_why_it_is_refused(client_for, participant, corpus):
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


def test_registration_requires_the_commercial_question(client_for, participant, corpus):
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


def test_a_participant_uploads_and_sees_the_run_scored(client_for, participant, site, on_commit):
    client = client_for(participant)
    with on_commit():
        answer = upload(client)
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Scored" in page
    assert "1.000" in page


def test_the_upload_page_refuses_a_late_upload_with_the_reason(
    client_for, participant, site, bakeoff
):
    bakeoff.submission_deadline = timezone.now() - timedelta(seconds=1)
    bakeoff.save()
    page = upload(client_for(participant)).content.decode()
    assert "deadline" in page
    assert not Submission.objects.filter(kind="run").exists()


def test_the_upload_page_refuses_a_wrong_encoding_with_the_reason(client_for, participant, site):
    page = upload(client_for(participant), data=run_file(encoding="gb18030")).content.decode()
    assert "do not decode as utf-8" in page


def test_the_upload_page_refuses_a_dropped_line_with_the_reason(client_for, participant, site):
    short = "".join(PERFECT_RUN.splitlines(True)[:2])
    page = upload(client_for(participant), data=run_file(short)).content.decode()
    assert "line 3" in page


def test_the_upload_page_refuses_a_track_not_registered(client_for, participant, site):
    page = upload(client_for(participant), "pk-open").content.decode()
    assert "not registered" in page


def test_the_corpus_page_offers_released_data_only(client_for, participant, site):
    page = client_for(participant).get("/bakeoffs/b2026/corpora/PK/").content.decode()
    assert "download/test_text/" in page
    assert "download/gold/" not in page
