"""The organiser's pages: create a bakeoff, a corpus with tracks, decide registrations."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from bakeoff.models import Bakeoff, Corpus, Registration
from tests.factories import GOLD, TEST, WORDS, make_site, make_user, track
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db

TIMETABLE = {
    "registration_opens": "2026-06-01T09:00",
    "registration_closes": "2026-06-20T18:00",
    "training_released": "2026-06-01T09:00",
    "test_released": "2026-07-25T09:00",
    "submission_deadline": "2026-07-27T20:00",
}


def test_an_organiser_creates_a_bakeoff_in_its_own_time_zone(
    client_for: ClientFor, organiser: User
) -> None:
    answer = client_for(organiser).post(
        "/bakeoffs/new/",
        {
            "name": "SIGHAN 2026",
            "slug": "sighan2026",
            "time_zone": "Asia/Shanghai",
            **TIMETABLE,
        },
    )
    assert answer.status_code == 302
    bakeoff = Bakeoff.objects.get(slug="sighan2026")
    assert bakeoff.submission_deadline == datetime(2026, 7, 27, 12, 0, tzinfo=UTC)
    assert organiser in bakeoff.organisers.all()


def test_the_form_refuses_a_deadline_before_the_test_data(
    client_for: ClientFor, organiser: User
) -> None:
    answer = client_for(organiser).post(
        "/bakeoffs/new/",
        {
            "name": "X",
            "slug": "x",
            "time_zone": "UTC",
            **TIMETABLE,
            "submission_deadline": "2026-07-01T00:00",
        },
    )
    assert answer.status_code == 200
    assert not Bakeoff.objects.exists()


def test_a_participant_may_not_create_a_bakeoff(client_for: ClientFor, participant: User) -> None:
    assert client_for(participant).get("/bakeoffs/new/").status_code == 404


def test_an_organiser_adds_a_corpus_with_tracks(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff
) -> None:
    answer = client_for(organiser).post(
        "/bakeoffs/b2026/corpora/new/",
        {
            "name": "Peking University",
            "abbreviation": "PK",
            "institution": "PKU",
            "standard": "PKU",
            "encoding": "utf-8",
            "closed_track": "on",
            "open_track": "on",
            "max_runs": 2,
            "gold": SimpleUploadedFile("gold.txt", GOLD.encode()),
            "test_text": SimpleUploadedFile("test.txt", TEST.encode()),
            "training_words": SimpleUploadedFile("words.txt", WORDS.encode()),
        },
    )
    assert answer.status_code == 302
    corpus = Corpus.objects.get(abbreviation="PK")
    assert sorted(corpus.tracks.values_list("slug", flat=True)) == ["pk-closed", "pk-open"]


def test_the_corpus_form_shows_a_decoding_error(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff
) -> None:
    page = (
        client_for(organiser)
        .post(
            "/bakeoffs/b2026/corpora/new/",
            {
                "name": "PK",
                "abbreviation": "PK",
                "institution": "PKU",
                "encoding": "utf-8",
                "closed_track": "on",
                "max_runs": 2,
                "gold": SimpleUploadedFile("gold.txt", GOLD.encode("gb18030")),
            },
        )
        .content.decode()
    )
    assert "do not decode" in page
    assert not Corpus.objects.exists()


def test_another_organiser_cannot_edit_the_bakeoff(client_for: ClientFor, bakeoff: Bakeoff) -> None:
    stranger = make_user("stranger", is_staff=True)
    assert client_for(stranger).get("/bakeoffs/b2026/edit/").status_code == 404


def test_a_participant_cannot_see_registrations(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff
) -> None:
    assert client_for(participant).get("/bakeoffs/b2026/registrations/").status_code == 404


def test_an_organiser_approves_a_registration(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    site = make_site(bakeoff, make_user("p2"), [track(corpus)], approved=False)
    registration = site.registrations.get()
    client = client_for(organiser)
    assert "Approve" in client.get("/bakeoffs/b2026/registrations/").content.decode()
    client.post(f"/bakeoffs/b2026/registrations/{registration.pk}/decide/", {"decision": "approve"})
    registration.refresh_from_db()
    assert registration.status == "approved"
    site.refresh_from_db()
    assert site.code == "S01"


def test_an_organiser_refuses_a_registration_with_a_reason(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    site = make_site(bakeoff, make_user("p2"), [track(corpus)], approved=False)
    registration = site.registrations.get()
    client_for(organiser).post(
        f"/bakeoffs/b2026/registrations/{registration.pk}/decide/",
        {"decision": "refuse", "reason": "no system description"},
    )
    assert Registration.objects.get(pk=registration.pk).refusal_reason == "no system description"


def test_an_organiser_uploads_a_corrected_gold(
    client_for: ClientFor, organiser: User, corpus: Corpus
) -> None:
    answer = client_for(organiser).post(
        "/bakeoffs/b2026/corpora/PK/gold/new/",
        {
            "gold": SimpleUploadedFile("gold.txt", GOLD.replace("北京 工作", "北京工作").encode()),
            "note": "CTB-style correction",
        },
    )
    assert answer.status_code == 302
    assert corpus.gold_versions.count() == 2


def test_the_organiser_sees_gold_versions_on_the_corpus_page(
    client_for: ClientFor, organiser: User, corpus: Corpus
) -> None:
    page = client_for(organiser).get("/bakeoffs/b2026/corpora/PK/").content.decode()
    assert "Version 1" in page
    assert "download/gold/" in page
