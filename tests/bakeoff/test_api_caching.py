"""A shared cache in front of the platform never serves one site's API answer to another."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from bakeoff.models import Site, Track

pytestmark = pytest.mark.django_db


def url_of(track: Track) -> str:
    return f"/api/bakeoffs/{track.corpus.bakeoff.slug}/tracks/{track.slug}/submissions/"


def test_an_answer_to_a_token_is_private_and_varies_with_the_token(
    participant: User, site: Site, closed: Track
) -> None:
    token = Token.objects.create(user=participant)
    answer = Client().get(url_of(closed), HTTP_AUTHORIZATION=f"Token {token.key}")
    assert answer.status_code == 200
    assert "private" in answer["Cache-Control"]
    assert {"Authorization", "Cookie"} <= {v.strip() for v in answer["Vary"].split(",")}


def test_an_answer_to_a_session_is_private(participant: User, site: Site, closed: Track) -> None:
    client = Client()
    client.force_login(participant)
    answer = client.get(url_of(closed))
    assert answer.status_code == 200
    assert "private" in answer["Cache-Control"]


def test_an_anonymous_answer_still_varies_with_the_credentials(closed: Track) -> None:
    answer = Client().get(url_of(closed))
    assert "Authorization" in answer["Vary"]
    assert "private" not in answer.get("Cache-Control", "")


def test_pages_are_left_to_their_own_headers(participant: User, closed: Track) -> None:
    answer = Client().get(f"/bakeoffs/{closed.corpus.bakeoff.slug}/")
    assert "Authorization" not in answer.get("Vary", "")
