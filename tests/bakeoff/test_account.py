"""The account page creates and revokes the personal API token, and shows the command that
uploads with it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from bakeoff.models import Bakeoff, Site, Track
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db


def test_a_participant_creates_a_token(client_for: ClientFor, participant: User) -> None:
    client = client_for(participant)
    client.post("/account/token/")
    token = Token.objects.get(user=participant)
    assert token.key in client.get("/account/").content.decode()


def test_creating_again_replaces_the_token(client_for: ClientFor, participant: User) -> None:
    client = client_for(participant)
    client.post("/account/token/")
    first = Token.objects.get(user=participant).key
    client.post("/account/token/")
    assert Token.objects.get(user=participant).key != first


def test_a_participant_revokes_the_token(client_for: ClientFor, participant: User) -> None:
    client = client_for(participant)
    client.post("/account/token/")
    client.post("/account/token/revoke/")
    assert not Token.objects.filter(user=participant).exists()


def test_the_account_page_needs_a_login(anonymous: Client) -> None:
    assert anonymous.get("/account/").status_code == 302


def test_tokens_are_not_created_by_get(client_for: ClientFor, participant: User) -> None:
    assert client_for(participant).get("/account/token/").status_code == 405


def test_the_upload_command_names_a_track_the_participant_may_upload_to(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    page = client_for(participant).get("/account/").content.decode()
    assert "http://testserver/api/bakeoffs/b2026/tracks/pk-closed/submissions/" in page


def test_without_an_approved_track_the_upload_command_has_placeholders(
    client_for: ClientFor, participant: User
) -> None:
    page = client_for(participant).get("/account/").content.decode()
    assert "/api/bakeoffs/BAKEOFF/tracks/TRACK/submissions/" in page


def test_the_first_token_says_it_is_the_first(client_for: ClientFor, participant: User) -> None:
    client = client_for(participant)
    first = client.post("/account/token/", follow=True).content.decode()
    assert "Your first token was created." in first and "old one" not in first
    again = client.post("/account/token/", follow=True).content.decode()
    assert "the old one no longer works" in again


def test_the_upload_command_names_the_phase_open_now(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    page = client_for(participant).get("/account/").content.decode()
    assert "-F phase=test" in page
    now = timezone.now()
    Bakeoff.objects.filter(pk=site.bakeoff_id).update(
        registration_closes=now - timedelta(days=4),
        test_released=now - timedelta(days=3),
        submission_deadline=now - timedelta(days=2),
        results_published=now - timedelta(days=1),
    )
    Track.objects.filter(slug="pk-closed").update(post_bakeoff_open=True)
    page = client_for(participant).get("/account/").content.decode()
    assert "-F phase=post_bakeoff" in page
