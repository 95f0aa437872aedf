"""Published results at the speed of the proxy (issue 25), through nginx from the shipped template
in front of gunicorn, with Redis as the cache: nginx serves anonymous readers the published page it
kept, never before publication, never to a request with a session or credentials; an erratum
reaches them within the page's max-age; with the cache's Redis away the pages still render."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.backends.db import SessionStore
from pytest_django import Settings

from bakeoff.models import Bakeoff, Track
from leaderboard.models import TrackStanding
from leaderboard.services import do_publish_erratum
from tests.factories import (
    make_bakeoff,
    make_corpus,
    make_scored_runs,
    make_site,
    make_user,
    publish,
    track,
)
from tests.tools import missing_tool

from .stack import Gunicorn, Nginx, RedisServer, free_port, nginx_available, platform_environment

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


@dataclass
class Stack:
    nginx: Nginx
    gunicorn: Gunicorn
    redis: RedisServer


@pytest.fixture
def stack(settings: Settings, tmp_path: Path) -> Iterator[Stack]:
    if not nginx_available():
        missing_tool("nginx is not installed (apt-get install nginx)")
    settings.MEDIA_ROOT = tmp_path / "media"
    redis = RedisServer(tmp_path / "redis", free_port()).start()
    env = platform_environment(
        django_settings.CELERY_BROKER_URL,
        f"proxy-{uuid.uuid4().hex[:8]}-",
        tmp_path,
        CACHE_URL=redis.url,
        # this process's, so that a session made here is read there
        SECRET_KEY=django_settings.SECRET_KEY,
        # short, so that the test sees a copy expire
        BAKEOFF_PUBLISHED_MAX_AGE="2",
        BAKEOFF_PUBLISHED_STALE_SECONDS="1",
    )
    gunicorn = Gunicorn.start(env, tmp_path / "gunicorn.log", workers=2)
    try:
        nginx = Nginx.start(tmp_path / "nginx", gunicorn.address)
        try:
            yield Stack(nginx, gunicorn, redis)
        finally:
            nginx.stop()
    finally:
        gunicorn.stop()
        redis.stop()


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def cache_status(url: str, headers: dict[str, str] | None = None) -> str:
    status, answer, _body = fetch(url, headers)
    assert status == 200, (url, status)
    return answer.get("X-Cache-Status", "")


def bakeoff_with_runs() -> tuple[Bakeoff, Track]:
    bakeoff = make_bakeoff(slug="proxied")
    closed = track(make_corpus(bakeoff), "closed")
    make_scored_runs(closed, 6)
    return bakeoff, closed


def session_of(username: str) -> str:
    user = make_user(username)
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


def test_anonymous_readers_of_published_results_are_served_by_the_proxy(stack: Stack) -> None:
    bakeoff, closed = bakeoff_with_runs()
    page = f"{stack.nginx.url}/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/"
    # before publication nothing is kept
    assert [cache_status(page) for _ in range(3)] == ["MISS"] * 3
    publish(bakeoff)
    run = TrackStanding.objects.filter(track=closed, site__isnull=False).first()
    assert run is not None  # an official run, in the published version
    for url in (page, page + "results.json", page + "f.svg", f"{page}runs/{run.submission_id}/"):
        assert [cache_status(url) for _ in range(3)] == ["MISS", "HIT", "HIT"]
    _status, headers, body = fetch(page)
    assert "public" in headers["Cache-Control"] and "Set-Cookie" not in headers
    assert "csrfmiddlewaretoken" not in body
    # in another language, another copy
    assert cache_status(page, {"Accept-Language": "zh-hans"}) == "MISS"
    assert "已于" in fetch(page, {"Accept-Language": "zh-hans"})[2]
    # a reader with a session or credentials is the application's own, never served a copy
    cookie = {"Cookie": f"sessionid={session_of('reader')}"}
    assert [cache_status(page, cookie) for _ in range(2)] == ["BYPASS"] * 2
    _status, headers, body = fetch(page, cookie)
    assert "reader" in body and "private" in headers["Cache-Control"]
    token = {"Authorization": "Token 0123"}
    assert cache_status(page + "results.json", token) == "BYPASS"


def test_an_erratum_reaches_the_proxys_readers_within_the_max_age(stack: Stack) -> None:
    bakeoff = make_bakeoff(slug="erratum-proxy")
    corpus = make_corpus(bakeoff)
    closed = track(corpus, "closed")
    author = make_user("author")
    make_site(bakeoff, author, [closed])
    make_scored_runs(closed, 4)
    publish(bakeoff)
    json_url = f"{stack.nginx.url}/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/results.json"
    assert '"results_version": 1' in fetch(json_url)[2]
    make_scored_runs(closed, 1, seed=7)  # a change for the erratum to publish
    do_publish_erratum(bakeoff, note="corrected")
    time.sleep(3.5)  # max-age 2 s and 1 s of stale-while-revalidate
    _status, headers, body = fetch(json_url)
    assert headers["X-Cache-Status"] == "EXPIRED" and '"results_version": 2' in body
    assert cache_status(json_url) == "HIT"


def test_with_the_caches_redis_away_the_pages_still_render(stack: Stack) -> None:
    bakeoff, closed = bakeoff_with_runs()
    publish(bakeoff)
    direct = f"{stack.gunicorn.url}/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/"
    first = fetch(direct)
    stack.redis.stop()
    for _ in range(3):
        status, headers, body = fetch(direct)
        assert status == 200 and "ETag" in headers
    assert body.count("<tr") == first[2].count("<tr")
