"""The cache's Redis away, for real: one redis-server of our own is the broker and the cache, as
docker-compose.yml ships them, and it is stopped while people log in and upload through gunicorn.
The rate limiters count in each process meanwhile (config/cache.py); nothing answers 500, uploads
are accepted into the outbox and scored once Redis is back."""

from __future__ import annotations

import http.client
import json
import logging
import re
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from pytest_django import Settings
from rest_framework.authtoken.models import Token

from bakeoff.models import Score, Submission, SubmissionStatus, Track
from config import cache as degrading
from tests.factories import GOLD, RUNS, TEST, WORDS, make_bakeoff, make_corpus, make_site, make_user
from tests.tools import missing_tool

from .stack import (
    CeleryWorker,
    Gunicorn,
    RedisServer,
    free_port,
    platform_environment,
    redis_available,
)
from .test_deadline_rush import multipart
from .test_outages import wait

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    if not redis_available():
        missing_tool("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path / "redis", free_port()).start()
    try:
        yield server
    finally:
        server.stop()


def test_the_cache_answers_from_the_process_while_its_redis_is_away(
    redis: RedisServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(degrading, "RETRY_SECONDS", 0.5)
    cache = degrading.DegradingRedisCache(
        redis.url.replace("/0", "/3"),
        {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}},
    )
    cache.set("shared", "in redis", timeout=60)
    assert cache.get("shared") == "in redis"
    before = cache.degraded
    assert before is False

    redis.stop()
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        assert cache.add("hits", 0, timeout=60) is True
        assert [cache.incr("hits") for _ in range(3)] == [1, 2, 3]
        assert cache.get("shared") is None  # what Redis holds is not here meanwhile
        cache.set("local", 1)
    assert cache.degraded
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "unavailable" in warnings[0].getMessage()

    redis.start()  # the same directory: what was written before the outage is kept
    time.sleep(0.6)
    assert cache.get("shared") == "in redis"
    assert not cache.degraded


@dataclass
class Web:
    gunicorn: Gunicorn
    track: Track
    token: str

    def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.gunicorn.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            answer = connection.getresponse()
            cookies = "; ".join(
                value.split(";")[0] for key, value in answer.getheaders() if key == "Set-Cookie"
            )
            return answer.status, {**dict(answer.getheaders()), "cookies": cookies}, answer.read()
        finally:
            connection.close()

    def log_in(self, login: str, password: str) -> tuple[int, str]:
        """allauth's login form, as a browser sends it: the status and where it leads."""
        status, headers, page = self.request("GET", "/accounts/login/")
        assert status == 200, page[:500]
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None
        form = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token.group(1).decode(), "login": login, "password": password}
        ).encode()
        status, headers, page = self.request(
            "POST",
            "/accounts/login/",
            form,
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": headers["cookies"],
            },
        )
        assert status < 500, page[:2000]
        return status, headers.get("Location", "")

    def upload(self, data: bytes) -> tuple[int, dict[str, Any]]:
        body, content_type = multipart(data)
        path = f"/api/bakeoffs/cache-outage/tracks/{self.track.slug}/submissions/"
        status, _headers, answer = self.request(
            "POST",
            path,
            body,
            {"Authorization": f"Token {self.token}", "Content-Type": content_type},
        )
        return status, json.loads(answer)


def test_logins_and_uploads_go_on_while_the_one_redis_of_broker_and_cache_is_away(
    redis: RedisServer, settings: Settings, tmp_path: Path
) -> None:
    from config.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True  # BASE and TOP scored here, at once
    try:
        bakeoff = make_bakeoff(slug="cache-outage")
        corpus = make_corpus(bakeoff, gold=GOLD, test=TEST, words=WORDS, conditions=("closed",))
    finally:
        app.conf.task_always_eager = previous
    track = corpus.tracks.get()
    track.max_runs = 20
    track.save()
    user = make_user("cacheout")
    EmailAddress.objects.create(
        user=user, email="cacheout@example.org", verified=True, primary=True
    )
    make_site(bakeoff, user, [track])
    token = Token.objects.create(user=user).key

    prefix = f"cache-{uuid.uuid4().hex[:6]}-"
    # As docker-compose.yml has it: the broker in database 5, the cache in database 6, one server.
    env = platform_environment(
        redis.url.replace("/0", "/5"),
        prefix,
        tmp_path,
        CACHE_URL=redis.url.replace("/0", "/6"),
        SECURE_COOKIES="0",
    )
    logs = tmp_path / "logs"
    logs.mkdir()
    gunicorn = Gunicorn.start(env, logs / "gunicorn.log", workers=2)
    queues = [prefix + "scoring", prefix + "mail", prefix + "analysis"]
    worker = CeleryWorker.start("cache-scoring", queues, env, logs / "worker.log")
    web = Web(gunicorn, track, token)
    try:
        worker.wait_until_ready()
        status, where = web.log_in("cacheout", "pw-cacheout")
        assert (status, where) == (302, "/"), "a login with Redis up"

        redis.stop()
        accepted = []
        for run in RUNS:
            status, body = web.upload(run.encode())
            assert status == 201, body
            assert body["status"] == "queued"
            accepted.append(body["id"])
        for _ in range(2):
            status, where = web.log_in("cacheout", "pw-cacheout")
            assert (status, where) == (302, "/"), "a login while Redis is away"
        status, _headers, page = web.request("GET", "/bakeoffs/cache-outage/")
        assert status == 200, page[:500]
        time.sleep(2)
        assert {s.status for s in Submission.objects.filter(pk__in=accepted)} == {"queued"}

        redis.start()  # the same directory: the broker's queues are kept
        scored = wait(
            lambda: (
                Submission.objects.filter(pk__in=accepted, status=SubmissionStatus.SCORED).count()
                == len(accepted)
            ),
            10,
            "the runs accepted during the outage to be scored",
        )
        print(f"{len(accepted)} runs accepted while Redis was away, scored {scored:.1f} s after")
        assert Score.objects.filter(submission_id__in=accepted).count() == len(accepted)
        log = (logs / "gunicorn.log").read_text(errors="replace")
        assert "unavailable" in log, "the web tier says the cache is away"
        assert " 500 " not in log
    finally:
        worker.stop()
        gunicorn.stop()
