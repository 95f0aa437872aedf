"""A CRF committee's members are queued while the broker is away, for real: a redis-server of our
own is stopped when the build sends one task per member, and a real worker trains them once it is
started again. The tasks wait in the outbox meanwhile; none is lost, none is trained twice."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_django import Settings

from bakeoff.models import OutboxEntry
from psychometric import services, tasks
from psychometric.models import Committee, CommitteeMember, CommitteeStatus, MemberStatus
from tests.factories import make_bakeoff, make_corpus
from tests.psychometric.factories import TRAINING
from tests.tools import missing_tool

from .stack import (
    CeleryWorker,
    RedisServer,
    free_port,
    platform_environment,
    publishing_to,
    redis_available,
)

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def wait(condition: Callable[[], bool], timeout: float, what: str) -> float:
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        if condition():
            return time.monotonic() - began
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def test_members_queued_while_the_broker_is_away_are_trained_once_it_is_back(
    settings: Settings, tmp_path: Path
) -> None:
    if not redis_available():
        missing_tool("redis-server is not installed (apt-get install redis-server)")
    from config.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True  # BASE and TOP scored here, at once
    try:
        corpus = make_corpus(make_bakeoff(slug="committee-outage"), training=TRAINING)
    finally:
        app.conf.task_always_eager = previous
    redis = RedisServer(tmp_path / "redis", free_port()).start()
    prefix = f"committee-{uuid.uuid4().hex[:6]}-"
    env = platform_environment(redis.url, prefix, tmp_path)
    worker = None
    try:
        with publishing_to(redis.url, prefix):
            # Published, and waiting in the broker: no worker yet.
            committee = services.do_start_committee(corpus, kind="crf", k=3, max_iterations=10)
            assert not OutboxEntry.objects.exists()
            redis.stop()
            # This process builds it as the worker that took the task would: one task per
            # member, sent once the build's transaction commits, with the broker away.
            tasks.build_committee(committee.pk)
            members = list(CommitteeMember.objects.filter(committee=committee).order_by("pk"))
            assert [m.status for m in members] == [MemberStatus.QUEUED] * 3
            waiting = OutboxEntry.objects.filter(task=tasks.train_member.name)
            assert sorted(e.args for e in waiting) == [[m.pk] for m in members]
            time.sleep(3)
            assert OutboxEntry.objects.filter(task=tasks.train_member.name).count() == 3

            redis.start()  # the same directory: the build's message is kept too
            queues = [prefix + "committee", prefix + "analysis"]
            worker = CeleryWorker.start("committee", queues, env, tmp_path / "worker.log")
            worker.wait_until_ready()
            published = wait(
                lambda: not OutboxEntry.objects.filter(task=tasks.train_member.name).exists(),
                30,
                "the outbox to publish the members",
            )
            built = wait(
                lambda: Committee.objects.get(pk=committee.pk).status != CommitteeStatus.RUNNING,
                180,
                "the committee to be assembled",
            )
        print(f"members published {published:.1f} s, committee built {built:.1f} s after")
        committee.refresh_from_db()
        assert committee.status == CommitteeStatus.COMPLETE, committee.reason
        trained = CommitteeMember.objects.filter(committee=committee).order_by("number")
        assert [(m.status, m.attempts) for m in trained] == [(MemberStatus.DONE, 1)] * 3
    finally:
        if worker is not None:
            worker.stop()
        redis.stop()
