"""The API's read operations and data loop for a participant: what the pages show them and no
more (drafts 404, the blind phase holds), the data agreement recorded as the page records it,
files downloaded with their checksum behind the pages' gates, and uploads refused on the pages and
the API until a member of the site accepted the corpus's licence."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, LicenceAcceptance, Site, Track
from tests.factories import PERFECT_RUN, make_bakeoff
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

LICENCE = "The PK corpus is for research in this bakeoff only."
B = "/api/bakeoffs/b2026/"


def api(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _created = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def upload(client: APIClient, track: str = "pk-closed") -> tuple[int, dict[str, object]]:
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    answer = client.post(f"{B}tracks/{track}/submissions/", {"file": run}, format="multipart")
    return answer.status_code, answer.json()


@pytest.fixture
def licensed(corpus: Corpus) -> Corpus:
    Corpus.objects.filter(pk=corpus.pk).update(licence=LICENCE)
    corpus.refresh_from_db()
    return corpus


def test_the_bakeoffs_i_may_see_leave_out_a_draft(
    bakeoff: Bakeoff, participant: User, organiser: User
) -> None:
    make_bakeoff(slug="draft", opened_at=None, organiser=organiser)
    slugs = [b["slug"] for b in api(participant).get("/api/bakeoffs/").json()]
    assert "b2026" in slugs and "draft" not in slugs
    assert api(participant).get("/api/bakeoffs/draft/").status_code == 404
    assert "draft" in [b["slug"] for b in api(organiser).get("/api/bakeoffs/").json()]


def test_a_bakeoff_gives_its_timetable_in_utc_with_its_zone_and_its_phases(
    bakeoff: Bakeoff, closed: Track, participant: User
) -> None:
    body = api(participant).get(B).json()
    assert body["time_zone"] == "Asia/Shanghai"
    deadline = body["timetable"]["submission_deadline"]
    assert deadline == bakeoff.submission_deadline.isoformat() and deadline.endswith("+00:00")
    assert [p["phase"] for p in body["phases"]] == ["test", "development", "post_bakeoff"]
    assert "pk-closed" in [t["slug"] for t in body["tracks"]]
    assert [c["abbreviation"] for c in body["corpora"]] == ["PK"]


def test_a_registered_participant_sees_each_file_with_its_size_and_sha256(
    site: Site, participant: User
) -> None:
    client = api(participant)
    (corpus,) = client.get(f"{B}corpora/").json()
    test = next(f for f in corpus["files"] if f["kind"] == "test_text")
    assert test["available"] is True
    download = client.get(test["url"])
    data = b"".join(download.streaming_content)  # type: ignore[attr-defined]
    assert download.status_code == 200
    assert len(data) == test["size"]
    assert hashlib.sha256(data).hexdigest() == test["sha256"] == download["X-Checksum-SHA256"]
    gold = next(f for f in corpus["files"] if f["kind"] == "gold")
    assert (gold["available"], gold["refusal"]) == (False, "not_released")
    assert "size" not in gold and "sha256" not in gold
    refused = client.get(gold["url"])
    assert (refused.status_code, refused.json()["code"]) == (403, "not_released")


def test_an_outsider_downloads_nothing(closed: Track, outsider: User) -> None:
    answer = api(outsider).get(f"{B}corpora/PK/files/test_text/")
    assert (answer.status_code, answer.json()["code"]) == (403, "not_allowed")
    assert api(None).get(f"{B}corpora/PK/files/test_text/").status_code == 401
    assert api(outsider).get(f"{B}corpora/PK/files/nothing/").status_code == 404


def test_the_agreement_is_recorded_as_the_page_records_it_and_opens_the_data(
    licensed: Corpus, site: Site, participant: User
) -> None:
    client = api(participant)
    refused = client.get(f"{B}corpora/PK/files/test_text/")
    assert (refused.status_code, refused.json()["code"]) == (403, "licence_not_accepted")
    accepted = client.post(f"{B}corpora/PK/agreement/")
    assert accepted.status_code == 200
    acceptance = LicenceAcceptance.objects.get()
    assert (acceptance.site, acceptance.accepted_by) == (site, participant)
    assert acceptance.licence_checksum == services.licence_checksum(licensed)
    assert accepted.json()["licence_checksum"] == acceptance.licence_checksum
    assert client.get(f"{B}corpora/PK/files/test_text/").status_code == 200
    (corpus,) = client.get(f"{B}corpora/").json()
    assert corpus["licence_accepted"] is True and corpus["licence"] == LICENCE


def test_an_upload_waits_for_the_licence_on_the_api_and_on_the_page(
    licensed: Corpus, site: Site, participant: User, client_for: ClientFor, on_commit: OnCommit
) -> None:
    status, body = upload(api(participant))
    assert (status, body["code"], body["corpus"]) == (403, "licence_not_accepted", "PK")
    page = client_for(participant).get("/bakeoffs/b2026/tracks/pk-closed/upload/")
    assert "data agreement of PK" in page.content.decode()
    services.do_accept_licence(licensed, participant)
    with on_commit():
        status, body = upload(api(participant))
    assert status == 201


def test_my_sites_members_and_registrations(site: Site, participant: User) -> None:
    for path in ("sites/", "registrations/"):
        (mine,) = api(participant).get(f"{B}{path}").json()
        assert mine["name"] == site.name and mine["members"] == [participant.get_username()]
        assert [(r["track"], r["status"]) for r in mine["registrations"]] == [
            ("pk-closed", "approved")
        ]


def test_my_runs_in_every_phase_hide_scores_where_the_page_hides_them(
    bakeoff: Bakeoff, site: Site, participant: User, on_commit: OnCommit
) -> None:
    Bakeoff.objects.filter(pk=bakeoff.pk).update(hide_scores_until_publication=True)
    client = api(participant)
    with on_commit():
        status, sent = upload(client)
    assert status == 201
    (run,) = client.get(f"{B}runs/").json()
    assert run["id"] == sent["id"] and run["status"] == "scored"
    assert "scores" not in run
    assert "scores" not in client.get(run["url"]).json()
    listed = client.get(f"{B}tracks/pk-closed/submissions/").json()["results"]
    assert all("scores" not in r for r in listed)
    Bakeoff.objects.filter(pk=bakeoff.pk).update(hide_scores_until_publication=False)
    (shown,) = client.get(f"{B}runs/").json()
    assert shown["scores"]["f"] == 1.0


def test_another_sites_runs_are_not_mine(
    bakeoff: Bakeoff, site: Site, outsider: User, participant: User, on_commit: OnCommit
) -> None:
    with on_commit():
        upload(api(participant))
    assert api(outsider).get(f"{B}runs/").json() == []
