"""Every page renders for the persona it is meant for."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Corpus, Site, Track
from tests.hints import ClientFor

# Also in the SQLite pass of make test: the embedded mode, as `make demo` runs it.
pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/bakeoffs/b2026/",
        "/bakeoffs/b2026/corpora/PK/",
        "/accounts/login/",
    ],
)
def test_anonymous_pages_render(anonymous: Client, corpus: Corpus, path: str) -> None:
    assert anonymous.get(path).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/bakeoffs/new/",
        "/bakeoffs/b2026/edit/",
        "/bakeoffs/b2026/corpora/new/",
        "/bakeoffs/b2026/corpora/PK/gold/new/",
        "/bakeoffs/b2026/corpora/PK/tracks/new/",
        "/bakeoffs/b2026/registrations/",
        "/bakeoffs/b2026/submissions/",
    ],
)
def test_organiser_pages_render(
    client_for: ClientFor, organiser: User, corpus: Corpus, path: str
) -> None:
    assert client_for(organiser).get(path).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/account/",
        "/bakeoffs/b2026/register/",
        "/bakeoffs/b2026/submissions/",
        "/bakeoffs/b2026/tracks/pk-closed/upload/",
    ],
)
def test_participant_pages_render(
    client_for: ClientFor, participant: User, site: Site, path: str
) -> None:
    assert client_for(participant).get(path).status_code == 200


def test_an_organiser_sees_every_run(
    client_for: ClientFor, organiser: User, participant: User, site: Site, closed: Track
) -> None:
    from bakeoff import services
    from tests.factories import PERFECT_RUN

    services.submit_run(participant, closed, PERFECT_RUN.encode())
    page = client_for(organiser).get("/bakeoffs/b2026/submissions/").content.decode()
    assert "S01 run 1" in page


def test_the_organiser_adds_a_track_page(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff
) -> None:
    from tests.factories import make_corpus

    corpus = make_corpus(bakeoff, abbreviation="CT", conditions=("closed",))
    answer = client_for(organiser).post(
        "/bakeoffs/b2026/corpora/CT/tracks/new/", {"condition": "open", "max_runs": 3}
    )
    assert answer.status_code == 302
    assert corpus.tracks.get(condition="open").max_runs == 3


def test_the_health_check_answers_ok(anonymous: Client) -> None:
    answer = anonymous.get("/healthz/")
    assert answer.content == b"ok"
