"""A rush at the deadline through the stack as shipped: nginx (deploy/nginx/) in front of
gunicorn with one sync worker, on PostgreSQL. Every upload whose bytes were all sent before the
deadline is accepted, however long it then waits for the application; one sent after it is
refused."""

from __future__ import annotations

import http.client
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.utils import timezone
from pytest_django import Settings
from rest_framework.authtoken.models import Token

from bakeoff.models import Bakeoff, Submission, Track
from tests.factories import GOLD, TEST, WORDS, make_bakeoff, make_corpus, make_site, make_user
from tests.tools import missing_tool

from .stack import Gunicorn, Nginx, nginx_available, platform_environment

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

CLIENTS = 24
# 36,000 lines (0.7 MB): each upload keeps the one application worker busy for a while (18,000
# lines took 20 ms on a quiet machine, where all 24 uploads fitted in a lead of 0.8 s).
REPEAT = 12000


@dataclass
class Stack:
    nginx: Nginx
    gunicorn: Gunicorn


@pytest.fixture
def stack(settings: Settings, tmp_path: Path) -> Iterator[Stack]:
    if not nginx_available():
        missing_tool("nginx is not installed (apt-get install nginx)")
    settings.MEDIA_ROOT = tmp_path / "media"
    prefix = f"rush-{uuid.uuid4().hex[:8]}-"
    # Nobody consumes these queues: the test is about receipt.
    env = platform_environment(
        django_settings.CELERY_BROKER_URL, prefix, tmp_path, BAKEOFF_TRUSTED_PROXIES="127.0.0.1"
    )
    gunicorn = Gunicorn.start(env, tmp_path / "gunicorn.log", workers=1)
    try:
        nginx = Nginx.start(tmp_path / "nginx", gunicorn.address)
        try:
            yield Stack(nginx, gunicorn)
        finally:
            nginx.stop()
    finally:
        gunicorn.stop()
        import redis

        broker = redis.Redis.from_url(django_settings.CELERY_BROKER_URL)
        for key in broker.scan_iter(f"{prefix}*"):
            broker.delete(key)


def multipart(data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="run.txt"\r\n'
            "Content-Type: text/plain\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


@dataclass
class Upload:
    sent: float = 0.0  # time.time() when the last byte was handed to the socket
    answered: float = 0.0
    status: int = 0


def send(port: int, path: str, token: str, data: bytes, at: float, into: Upload) -> None:
    body, content_type = multipart(data)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.connect()
    time.sleep(max(0.0, at - time.time()))
    conn.request(
        "POST",
        path,
        body=body,
        headers={"Authorization": f"Token {token}", "Content-Type": content_type},
    )
    into.sent = time.time()
    answer = conn.getresponse()
    answer.read()
    into.answered = time.time()
    into.status = answer.status
    conn.close()


def rush(port: int, path: str, tokens: list[str], data: bytes, at: float) -> list[Upload]:
    uploads = [Upload() for _ in tokens]
    threads = [
        threading.Thread(target=send, args=(port, path, token, data, at, upload))
        for token, upload in zip(tokens, uploads, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return uploads


def test_no_upload_sent_before_the_deadline_is_refused_under_a_rush(stack: Stack) -> None:
    bakeoff = make_bakeoff(slug="rush")
    corpus = make_corpus(
        bakeoff, gold=GOLD * REPEAT, test=TEST * REPEAT, words=WORDS, conditions=("closed",)
    )
    track: Track = corpus.tracks.get()
    tokens = []
    for n in range(CLIENTS + 3):
        user = make_user(f"rusher{n}")
        make_site(bakeoff, user, [track], name=f"Site {n}")
        tokens.append(Token.objects.create(user=user).key)
    rushers, latecomer, calibrators = tokens[:CLIENTS], tokens[CLIENTS], tokens[CLIENTS + 1 :]
    path = f"/api/bakeoffs/rush/tracks/{track.slug}/submissions/"
    run = (GOLD * REPEAT).encode()

    # How long the one application worker takes over an upload on this machine now: the clients
    # send their runs early enough before the deadline that all of them are sent in time, and
    # late enough that the worker, taking them one after another, answers most after it (a
    # fixed lead of 0.8 s let a fast machine answer all 24 in time: no rush was tested).
    # (the second of two uploads: the first also pays for the worker's first request)
    for calibrator in calibrators:
        calibration = rush(stack.nginx.port, path, [calibrator], run, time.time())[0]
        assert calibration.status == 201
    one = calibration.answered - calibration.sent
    lead = min(0.8, max(0.2, CLIENTS * one / 4))
    deadline = timezone.now() + timedelta(seconds=3)
    Bakeoff.objects.filter(pk=bakeoff.pk).update(submission_deadline=deadline)
    uploads = rush(stack.nginx.port, path, rushers, run, deadline.timestamp() - lead)

    sent_in_time = [u for u in uploads if u.sent < deadline.timestamp()]
    assert len(sent_in_time) == CLIENTS, [(u.sent - deadline.timestamp()) for u in uploads]
    refused = [u for u in sent_in_time if u.status != 201]
    assert not refused, [(u.status, u.sent - deadline.timestamp()) for u in refused]
    # The test means something: the application answered some of them after the deadline.
    answered_late = [u for u in uploads if u.answered > deadline.timestamp()]
    answered = sorted(u.answered - deadline.timestamp() for u in uploads)
    print(f"rush: lead {lead:.2f} s, one upload {one:.3f} s, {len(answered_late)} answered late")
    assert answered_late, (
        f"no rush: all answered before the deadline ({lead=}, {one=}, {answered=})"
    )
    rushed = Submission.objects.filter(track=track, kind="run").exclude(
        site__members__auth_token__key__in=calibrators
    )
    assert rushed.count() == CLIENTS
    received = rushed.values_list("received_at", flat=True)
    assert max(received) < deadline

    # One sent after the deadline is still refused.
    late = rush(stack.nginx.port, path, [latecomer], run, time.time())
    assert late[0].status == 403


def test_the_proxy_answers_json_for_a_body_over_the_limit(stack: Stack) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", stack.nginx.port, timeout=30)
    conn.putrequest("POST", "/api/bakeoffs/none/tracks/none/submissions/")
    conn.putheader("Content-Length", str(65 << 20))
    conn.putheader("Content-Type", "multipart/form-data; boundary=x")
    conn.endheaders()
    answer = conn.getresponse()
    assert answer.status == 413
    assert answer.getheader("Content-Type", "").startswith("application/json")
    assert b"64 MiB" in answer.read()


def test_a_browsers_form_over_the_limit_gets_a_page_not_json(stack: Stack) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", stack.nginx.port, timeout=30)
    conn.putrequest("POST", "/bakeoffs/none/tracks/none/upload/")
    conn.putheader("Content-Length", str(65 << 20))
    conn.putheader("Content-Type", "multipart/form-data; boundary=x")
    conn.endheaders()
    answer = conn.getresponse()
    assert answer.status == 413
    assert answer.getheader("Content-Type", "") == "text/html; charset=utf-8"
    page = answer.read().decode()
    assert "<h1>File too large</h1>" in page
    assert "nothing was uploaded" in page and "文件超过 64 MiB 的上限" in page


def test_a_header_not_whole_within_10_s_is_answered_by_closing_the_connection(
    stack: Stack,
) -> None:
    import socket

    with socket.create_connection(("127.0.0.1", stack.nginx.port)) as sock:
        sock.sendall(b"GET /healthz/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sock.settimeout(20)
        began = time.monotonic()
        assert sock.recv(4096) == b"", "nothing is answered, the connection is closed"
        assert 9 < time.monotonic() - began < 15


def test_a_client_that_sends_its_header_slowly_does_not_hold_the_application(
    stack: Stack,
) -> None:
    """Two connections sending a header line a second; the health check still answers at once."""
    import socket

    slow = [socket.create_connection(("127.0.0.1", stack.nginx.port)) for _ in range(2)]
    try:
        for sock in slow:
            sock.sendall(b"GET /healthz/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        began = time.monotonic()
        for second in range(3):
            for sock in slow:
                sock.sendall(f"X-Slow-{second}: 1\r\n".encode())
            conn = http.client.HTTPConnection("127.0.0.1", stack.nginx.port, timeout=10)
            conn.request("GET", "/healthz/")
            assert conn.getresponse().status == 200
            conn.close()
            time.sleep(1)
        assert time.monotonic() - began < 6
    finally:
        for sock in slow:
            sock.close()


def test_slow_uploads_do_not_hold_the_application(stack: Stack) -> None:
    """Two uploads trickling at 15 KB/s; the one gunicorn worker still answers at once."""
    import socket

    slow = [socket.create_connection(("127.0.0.1", stack.nginx.port)) for _ in range(2)]
    try:
        for sock in slow:
            sock.sendall(
                b"POST /api/bakeoffs/none/tracks/none/submissions/ HTTP/1.1\r\n"
                b"Host: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
                b"Content-Length: 600000\r\n\r\n"
            )
        for _ in range(4):
            for sock in slow:
                sock.sendall(b"x" * 15000)
            began = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", stack.nginx.port, timeout=10)
            conn.request("GET", "/healthz/")
            assert conn.getresponse().status == 200
            conn.close()
            assert time.monotonic() - began < 2
            time.sleep(1)
    finally:
        for sock in slow:
            sock.close()


def test_a_chunked_upload_through_the_proxy_is_accepted(stack: Stack) -> None:
    bakeoff = make_bakeoff(slug="chunked")
    track = make_corpus(bakeoff, conditions=("closed",)).tracks.get()
    user = make_user("chunker")
    make_site(bakeoff, user, [track])
    token = Token.objects.create(user=user).key
    body, content_type = multipart(GOLD.encode())
    conn = http.client.HTTPConnection("127.0.0.1", stack.nginx.port, timeout=30)
    conn.putrequest("POST", f"/api/bakeoffs/chunked/tracks/{track.slug}/submissions/")
    conn.putheader("Authorization", f"Token {token}")
    conn.putheader("Content-Type", content_type)
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    for start in range(0, len(body), 50):
        piece = body[start : start + 50]
        conn.send(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    conn.send(b"0\r\n\r\n")
    answer = conn.getresponse()
    assert answer.status == 201, answer.read()
    assert Submission.objects.filter(track=track, site__members=user).count() == 1
