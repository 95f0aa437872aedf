"""A run sent with ``Transfer-Encoding: chunked`` (no length) is received like any other.

The requests go through ``config.wsgi.application`` itself, with the environ a server that
terminates the input hands over (gunicorn sets ``wsgi.input_terminated`` and de-chunks the body).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from pytest_django import Settings
from rest_framework.authtoken.models import Token

from bakeoff.models import Site, Submission
from config.wsgi import application
from tests.factories import PERFECT_RUN

from .test_api import URL

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def connection_kept_across_requests() -> Iterator[None]:
    """As Django's test client does: the test's transaction outlives each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def send_chunked(user: User, body: bytes) -> tuple[str, dict[str, Any]]:
    token = Token.objects.create(user=user).key
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": URL,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "CONTENT_TYPE": MULTIPART_CONTENT,
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    status: list[str] = []
    answer = b"".join(application(environ, lambda code, headers, *_: status.append(code)))
    return status[0], json.loads(answer)


def multipart_run(text: str) -> bytes:
    upload = io.BytesIO(text.encode("utf-8"))
    upload.name = "run.txt"
    return encode_multipart(BOUNDARY, {"file": upload})


def test_a_chunked_upload_is_accepted(participant: User, site: Site) -> None:
    status, body = send_chunked(participant, multipart_run(PERFECT_RUN))
    assert status.startswith("201"), body
    stored = Submission.objects.get(pk=body["id"])
    assert stored.site == site
    assert stored.file.read().decode("utf-8") == PERFECT_RUN


def test_a_chunked_upload_beyond_the_cap_is_refused_without_a_row(
    participant: User, site: Site, settings: Settings
) -> None:
    settings.BAKEOFF_MAX_UPLOAD_BYTES = 1000
    status, body = send_chunked(participant, multipart_run(PERFECT_RUN * 2000))
    assert status.startswith("413")
    assert body["limit"] == 1000 and "1,000 bytes" in body["detail"]
    assert not Submission.objects.filter(site=site).exists()
