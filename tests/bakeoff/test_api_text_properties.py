"""Every text field of the API, driven with NUL and other control characters, lone surrogates and
strings of 100,000 characters (issue 22): the answer is always a 4xx or a success, as JSON, never
a 5xx, and no file is left in the media root that no row names.

It runs in make test's PostgreSQL pass (it uses the database), where a NUL is refused by the
database rather than stored as SQLite stores it. Bodies are encoded here, byte for byte: a
multipart field or file name carries whatever bytes the text has (a lone surrogate as the three
bytes Python's ``surrogatepass`` gives, which are no UTF-8), a JSON body escapes it as
``\\ud800``, which is how a script would send one.

The case count is ``EXAMPLES`` for each of the ``FIELDS``; ``--hypothesis-show-statistics``
prints each field's examples.
"""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pytest_django import Settings
from rest_framework.test import APIClient

from bakeoff import services
from bakeoff.models import Site, Submission, Track
from tests.factories import RUNS, make_user
from tests.hints import ApiAnswer

from .storage import orphans

pytestmark = pytest.mark.django_db

EXAMPLES = 20
FIELDS = [
    "run:description",
    "run:phase",
    "run:file_name",
    "listing:page",
    "listing:page_size",
    "withdraw:reason (json)",
    "withdraw:reason (multipart)",
    "registration:name",
    "registration:institution",
    "registration:country",
    "registration:resources_statement",
    "registration:commercial_product",
    "registration:tracks",
]

LONG = 100_000
# Characters that break text somewhere: control characters, lone surrogates, separators, line
# breaks, and any other character.
PIECES = st.one_of(
    st.characters(categories=["Cc"]),
    st.characters(categories=["Cs"]),
    st.sampled_from(["\x00", "\t", "\n", "\r", "\u3000", "\u2028", '"', "\\", "长"]),
    st.characters(),
)


def long_texts() -> st.SearchStrategy[str]:
    """100,000 characters: one character repeated, a short hostile tail after it."""
    return st.tuples(
        st.sampled_from(["长", "x", "\x00", "\x1b", "\ud800", " ", "\n"]),
        st.text(alphabet=PIECES, max_size=5),
    ).map(lambda p: p[0] * (LONG - len(p[1])) + p[1])


HOSTILE = st.one_of(st.text(alphabet=PIECES, max_size=40), long_texts())


def utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def multipart(fields: dict[str, str], *, file_name: str = "run.txt") -> tuple[bytes, str]:
    """A multipart body with the run as ``file``, every byte of every value as it is."""
    boundary = f"boundary{uuid.uuid4().hex}".encode()
    parts = [
        b'--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n'
        % (boundary, name.encode(), utf8(value))
        for name, value in fields.items()
    ]
    parts.append(
        b'--%s\r\nContent-Disposition: form-data; name="file"; filename="%s"\r\n'
        b"Content-Type: text/plain\r\n\r\n%s\r\n" % (boundary, utf8(file_name), RUNS[0].encode())
    )
    parts.append(b"--%s--\r\n" % boundary)
    return b"".join(parts), f"multipart/form-data; boundary={boundary.decode()}"


class Driver:
    """Sends one request with ``value`` in one field of one endpoint, every other field valid."""

    def __init__(self, participant: User, site: Site, track: Track) -> None:
        self.participant, self.site, self.track = participant, site, track
        self.client = APIClient()
        self.client.force_authenticate(participant)
        self.runs = f"/api/bakeoffs/{track.corpus.bakeoff.slug}/tracks/{track.slug}/submissions/"
        self.accounts = itertools.count()

    def send(self, field: str, value: str) -> ApiAnswer:
        endpoint, name = field.split(":")
        send: Callable[[str, str], ApiAnswer] = getattr(self, endpoint)
        return send(name, value)

    def run(self, name: str, value: str) -> ApiAnswer:
        fields = {"description": "CRF", "phase": "test"}
        if name == "file_name":
            body, content_type = multipart(fields, file_name=value)
        else:
            body, content_type = multipart({**fields, name: value})
        answer: ApiAnswer = self.client.post(self.runs, body, content_type=content_type)
        if answer.status_code == 201:  # its slot and its text free for the next example
            accepted = Submission.objects.get(pk=answer.json()["id"])
            services.do_withdraw_run(accepted, user=self.participant)
        return answer

    def listing(self, name: str, value: str) -> ApiAnswer:
        answer: ApiAnswer = self.client.get(f"{self.runs}?{name}={quote_from_bytes(utf8(value))}")
        return answer

    def withdraw(self, name: str, value: str) -> ApiAnswer:
        run = Submission.objects.filter(site=self.site, withdrawn_at__isnull=True).first()
        if run is None:
            run = services.submit_run(self.participant, self.track, RUNS[1].encode())
        url = f"{self.runs}{run.pk}/withdraw/"
        if name == "reason (json)":
            body = json.dumps({"reason": value}).encode()  # a surrogate as \ud800
            answer: ApiAnswer = self.client.post(url, body, content_type="application/json")
        else:
            body, content_type = multipart({"reason": value})
            answer = self.client.post(url, body, content_type=content_type)
        return answer

    def registration(self, name: str, value: str) -> ApiAnswer:
        """A new account each time, so that every example registers a new site."""
        number = next(self.accounts)
        client = APIClient()
        client.force_authenticate(make_user(f"applicant{number}"))
        fields: dict[str, Any] = {
            "name": f"Site {number}",
            "institution": "Somewhere University",
            "country": "CN",
            "commercial_product": False,
            "tracks": [self.track.slug],
            "resources_statement": "a lexicon",
        }
        fields[name] = [value] if name == "tracks" and len(value) % 2 else value
        url = f"/api/bakeoffs/{self.track.corpus.bakeoff.slug}/registrations/"
        body = json.dumps(fields).encode()
        answer: ApiAnswer = client.post(url, body, content_type="application/json")
        return answer


@pytest.fixture
def driver(participant: User, site: Site, closed: Track, settings: Settings) -> Driver:
    settings.BAKEOFF_RATE_LIMITS = {**settings.BAKEOFF_RATE_LIMITS, "uploads": "100000/60"}
    return Driver(participant, site, closed)


@pytest.mark.parametrize("field", FIELDS)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(value=HOSTILE)
@example(value="\x00")
@example(value="x" * LONG)
def test_every_text_field_of_the_api_answers_4xx_or_success_and_leaves_no_file(
    driver: Driver, media_root: Path, field: str, value: str
) -> None:
    try:
        answer = driver.send(field, value)
    except Exception as error:  # what the test client raises for a 500 of the view
        pytest.fail(f"{field} = {value[:40]!r}... ({len(value)} characters): {error!r}")
    assert answer.status_code < 500, (field, value[:40], answer.content[:300])
    assert answer["Content-Type"] == "application/json"
    if answer.status_code >= 400:
        assert answer.json().get("code"), answer.content[:300]
    assert orphans(media_root) == set()
