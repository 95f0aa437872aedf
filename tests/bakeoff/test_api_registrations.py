"""Registration through the API (docs/phases.md): the form's rules and refusals, as JSON; after
publication, registrations for post-bakeoff runs are approved at once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff.models import (
    AuditEntry,
    Bakeoff,
    Corpus,
    Registration,
    RegistrationStatus,
    Site,
    Track,
)
from tests.factories import NEAR_PERFECT_RUN, PERFECT_RUN, make_user, publish, track
from tests.hints import ClientFor, OnCommit

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
    assert "the site's own institution" in answer.json()["detail"]
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
    run = SimpleUploadedFile("run.txt", NEAR_PERFECT_RUN.encode(), content_type="text/plain")
    with on_commit():
        uploaded = client.post(
            "/api/bakeoffs/b2026/tracks/pk-closed/submissions/",
            {"file": run, "phase": "post_bakeoff"},
            format="multipart",
        )
    assert uploaded.status_code == 201, uploaded.content
    scored = client.get(uploaded.json()["url"]).json()
    assert scored["phase"] == "post_bakeoff" and scored["official"] is False
    assert scored["scores"]["f"] == pytest.approx(24 / 27)
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
    assert "the site's own institution" in answer.json()["detail"]


def test_an_unknown_phase_is_refused(participant: User, site: Site) -> None:
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    answer = api(participant).post(
        "/api/bakeoffs/b2026/tracks/pk-closed/submissions/",
        {"file": run, "phase": "practice"},
        format="multipart",
    )
    assert answer.status_code == 400
    assert answer.json()["phases"] == ["test", "development", "post_bakeoff"]


# -- the page's form is the API's boundary (issue 22) -----------------------------------------


def registration_rows() -> tuple[int, int, int]:
    return Site.objects.count(), Registration.objects.count(), AuditEntry.objects.count()


@pytest.mark.parametrize(
    ("fields", "field", "code"),
    [
        ({"name": "x" * 100_000}, "name", "max_length"),
        ({"institution": "x" * 201}, "institution", "max_length"),
        ({"country": "x" * 101}, "country", "max_length"),
        ({"name": "Team\x00B"}, "name", "null_characters_not_allowed"),
        ({"institution": "Fu\x00dan"}, "institution", "null_characters_not_allowed"),
        ({"country": "C\x00N"}, "country", "null_characters_not_allowed"),
        (
            {"resources_statement": "a lexicon\x00"},
            "resources_statement",
            "null_characters_not_allowed",
        ),
        ({"name": "Team\nB"}, "name", "invalid"),
        ({"institution": "Fudan\x1b[31m"}, "institution", "invalid"),
        ({"country": "C\u2028N"}, "country", "invalid"),
        ({"commercial_product": "perhaps"}, "commercial_product", "invalid_choice"),
        ({"commercial_product": [True]}, "commercial_product", "invalid_choice"),
        ({"name": 42}, "name", "invalid"),
        ({"resources_statement": {"a": 1}}, "resources_statement", "invalid"),
    ],
)
def test_it_refuses_what_the_page_refuses_and_writes_nothing(
    participant: User, corpus: Corpus, fields: dict[str, object], field: str, code: str
) -> None:
    before = registration_rows()
    body = {"name": "Team B", "institution": "Fudan", "country": "CN", "tracks": ["pk-open"]}
    body["resources_statement"] = "a lexicon"
    answer = api(participant).post(URL, {**body, **fields}, format="json")
    assert answer.status_code == 400, answer.content
    refusal = answer.json()
    assert refusal["code"] == "invalid"
    assert code in [error["code"] for error in refusal["errors"][field]]
    assert field in refusal["detail"]
    assert registration_rows() == before


def test_a_name_too_long_is_refused_not_cut(participant: User, corpus: Corpus) -> None:
    answer = api(participant).post(
        URL,
        {"name": "长" * 100_000, "institution": "Fudan", "tracks": ["pk-closed"]},
        format="json",
    )
    assert answer.status_code == 400
    assert "at most 200 characters (it has 100000)" in answer.json()["detail"]
    assert not Site.objects.exists()


def test_the_api_and_the_page_refuse_in_the_same_words(
    client_for: ClientFor, participant: User, corpus: Corpus
) -> None:
    """The same fields through both entrances: the page shows the messages the API answers."""
    fields = {"name": "x" * 300, "institution": "Fu\x00dan", "country": "CN"}
    answer = api(participant).post(URL, {**fields, "tracks": ["pk-closed"]}, format="json")
    page = client_for(participant).post(
        "/bakeoffs/b2026/register/",
        {**fields, "commercial_product": "no", "tracks": [track(corpus).pk]},
    )
    assert page.status_code == 200  # the form again, with its errors
    shown = page.context["form"].errors
    answered = answer.json()["errors"]
    assert {name: [e["message"] for e in found] for name, found in answered.items()} == shown
    assert set(shown) == {"name", "institution"}
    assert not Site.objects.exists()


def test_a_member_registering_for_more_tracks_is_held_to_the_same_fields(
    participant: User, site: Site, corpus: Corpus
) -> None:
    before = registration_rows()
    answer = api(participant).post(
        URL, {"tracks": ["pk-open"], "resources_statement": "Hownet\x00"}, format="json"
    )
    assert answer.status_code == 400
    codes = {e["code"] for e in answer.json()["errors"]["resources_statement"]}
    assert "null_characters_not_allowed" in codes  # and the free-text rule's control_character
    assert registration_rows() == before


@pytest.mark.parametrize(
    ("sent", "stored"), [(True, True), ("yes", True), ("1", True), (False, False), ("off", False)]
)
def test_commercial_product_takes_a_boolean_or_the_usual_words(
    participant: User, corpus: Corpus, sent: object, stored: bool
) -> None:
    answer = api(participant).post(
        URL,
        {
            "name": "Team B",
            "institution": "Fudan",
            "commercial_product": sent,
            "tracks": ["pk-closed"],
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert Site.objects.get(name="Team B").commercial_product is stored


def test_a_new_site_without_its_name_is_missing_fields(participant: User, corpus: Corpus) -> None:
    answer = api(participant).post(
        URL, {"name": "  ", "institution": "Fudan", "tracks": ["pk-closed"]}, format="json"
    )
    assert answer.status_code == 400
    assert (answer.json()["code"], answer.json()["missing"]) == ("missing_fields", ["name"])


def test_a_hundred_thousand_slugs_are_unknown_tracks_not_a_fault(
    participant: User, corpus: Corpus
) -> None:
    slugs = [f"t{i}" for i in range(100_000)] + ["pk-closed", "x" * 100_000]
    answer = api(participant).post(
        URL, {"name": "Team B", "institution": "Fudan", "tracks": slugs}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "unknown_track"
    assert not Site.objects.exists()
