"""Faults on the production path, for real: a broker of our own stopped and started again while
uploads arrive through gunicorn, and a worker killed (SIGKILL) while it scores a run. Nothing
waits for the sweep (900 s): the outbox publishes within seconds of the broker's return, and a
run held by a dead worker is scored within a minute by another."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone
from pytest_django import Settings
from rest_framework.authtoken.models import Token

from bakeoff.models import OutboxEntry, Score, Submission, SubmissionStatus, Track
from tests.factories import GOLD, TEST, WORDS, make_bakeoff, make_corpus, make_site, make_user
from tests.tools import missing_tool

from .stack import (
    CeleryWorker,
    Gunicorn,
    RedisServer,
    database_url,
    free_port,
    platform_environment,
    redis_available,
)
from .tcp_cut import CuttableLink
from .test_deadline_rush import multipart

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

# 30,000 lines: scoring one run takes long enough to be caught in the act.
REPEAT = 10000


@dataclass
class Platform:
    env: dict[str, str]
    queues: list[str]
    gunicorn: Gunicorn
    redis: RedisServer
    logs: Path
    track: Track
    token: str
    workers: list[CeleryWorker]

    def worker(self, name: str) -> CeleryWorker:
        started = CeleryWorker.start(name, self.queues, self.env, self.logs / f"{name}.log")
        self.workers.append(started)
        started.wait_until_ready()
        return started

    def upload(self, data: bytes) -> tuple[int, dict[str, Any]]:
        body, content_type = multipart(data)
        path = f"/api/bakeoffs/outage/tracks/{self.track.slug}/submissions/"
        request = urllib.request.Request(
            self.gunicorn.url + path,
            data=body,
            headers={"Authorization": f"Token {self.token}", "Content-Type": content_type},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


@pytest.fixture
def platform(settings: Settings, tmp_path: Path) -> Iterator[Platform]:
    if not redis_available():
        missing_tool("redis-server is not installed (apt-get install redis-server)")
    from config.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True  # BASE and TOP scored here, at once
    try:
        bakeoff = make_bakeoff(slug="outage")
        corpus = make_corpus(
            bakeoff, gold=GOLD * REPEAT, test=TEST * REPEAT, words=WORDS, conditions=("closed",)
        )
    finally:
        app.conf.task_always_eager = previous
    track = corpus.tracks.get()
    track.max_runs = 20
    track.save()
    user = make_user("outage")
    make_site(bakeoff, user, [track])
    token = Token.objects.create(user=user).key
    redis = RedisServer(tmp_path / "redis", free_port()).start()
    prefix = f"outage-{uuid.uuid4().hex[:6]}-"
    env = platform_environment(redis.url, prefix, tmp_path)
    logs = tmp_path / "logs"
    logs.mkdir()
    gunicorn = Gunicorn.start(env, logs / "gunicorn.log", workers=2)
    queues = [prefix + "scoring", prefix + "mail", prefix + "analysis"]
    started = Platform(env, queues, gunicorn, redis, logs, track, token, [])
    try:
        yield started
    finally:
        for worker in started.workers:
            worker.stop()
        gunicorn.stop()
        redis.stop()


def status_of(pk: int) -> str:
    return str(Submission.objects.get(pk=pk).status)


def wait(condition: Callable[[], bool], timeout: float, what: str) -> float:
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if condition():
            return time.monotonic() - began
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


RUN = (GOLD * REPEAT).encode()


def test_an_upload_during_a_broker_outage_is_accepted_and_scored_once_it_is_back(
    platform: Platform,
) -> None:
    platform.worker("outage-scoring")
    platform.redis.stop()
    status, body = platform.upload(RUN)
    assert status == 201, body
    assert body["status"] == "queued"
    pk = body["id"]
    assert OutboxEntry.objects.filter(task="bakeoff.tasks.score_submission", args=[pk]).exists()
    time.sleep(3)
    assert status_of(pk) == "queued"

    platform.redis.start()  # the same directory: what was queued before is kept
    published = wait(
        lambda: not OutboxEntry.objects.filter(args=[pk]).exists(), 10, "the outbox to publish"
    )
    scored = wait(lambda: status_of(pk) == SubmissionStatus.SCORED, 60, "the run to be scored")
    print(f"published {published:.1f} s and scored {scored:.1f} s after the broker came back")
    assert Submission.objects.filter(track=platform.track, kind="run").count() == 1
    assert Score.objects.filter(submission_id=pk).count() == 1


def test_a_run_held_by_a_killed_worker_is_scored_by_another_within_a_minute(
    platform: Platform,
) -> None:
    doomed = platform.worker("doomed")
    for _ in range(5):  # bounded: the run may be scored before it is caught in the act
        status, body = platform.upload(RUN)
        assert status == 201, body
        pk = body["id"]
        wait(lambda: status_of(body["id"]) != "queued", 60, "the worker to take it")  # noqa: B023
        if status_of(pk) == SubmissionStatus.SCORING:
            doomed.kill()
            break
    else:
        pytest.fail("the worker scored every run before it could be killed")
    killed_at = timezone.now()
    held = Submission.objects.get(pk=pk)
    assert held.status == SubmissionStatus.SCORING and held.lease_until is not None
    assert held.lease_until > killed_at

    platform.worker("rescuer")
    ready = time.monotonic()
    wait(lambda: status_of(pk) == SubmissionStatus.SCORED, 90, "the rescuer to score it")
    took = time.monotonic() - ready
    print(f"scored {took:.1f} s after the second worker was ready")
    assert took < 60
    assert Score.objects.filter(submission_id=pk).count() == 1
    assert django_settings.BAKEOFF_STUCK_AFTER_SECONDS >= 900  # not the sweep's doing


def test_a_worker_cut_off_from_the_database_scores_the_run_once_it_is_back(
    platform: Platform,
) -> None:
    """45 s without the database (longer than the 35 s of retries there used to be)."""
    from django.db import connection

    db = connection.settings_dict
    link = CuttableLink((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    try:
        through_link = database_url().replace(
            f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/", f"@127.0.0.1:{link.port}/"
        )
        assert str(link.port) in through_link
        worker = CeleryWorker.start(
            "cut-off",
            platform.queues,
            {**platform.env, "DATABASE_URL": through_link},
            platform.logs / "cut-off.log",
        )
        platform.workers.append(worker)
        worker.wait_until_ready()
        link.cut()
        status, body = platform.upload(RUN)  # the web server reaches the database directly
        assert status == 201, body
        pk = body["id"]
        time.sleep(45)
        assert status_of(pk) == "queued"
        assert "Retry in" in worker.log.read_text(errors="replace")
        link.restore()
        took = wait(lambda: status_of(pk) == SubmissionStatus.SCORED, 120, "the run scored")
        print(f"scored {took:.1f} s after the database came back")
        assert Score.objects.filter(submission_id=pk).count() == 1
    finally:
        link.close()
