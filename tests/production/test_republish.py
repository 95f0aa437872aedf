"""The recovery loop on a real broker: it reads the length of the scoring queue exactly, and a
run whose message was lost (received by a worker that died before it started it) is published
again and scored, without waiting for the sweep."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis as redis_client

from bakeoff.models import Score, SubmissionStatus
from config.celery import app, scoring_queue_length

from .test_outages import RUN, Platform, platform, status_of, wait  # noqa: F401  (fixture)

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_a_lost_message_is_published_again_and_the_run_scored(
    platform: Platform,  # noqa: F811
    settings: Any,
) -> None:
    scoring_queue = platform.queues[0]
    settings.QUEUES = {**settings.QUEUES, "scoring": scoring_queue}
    previous = app.conf.broker_read_url
    app.conf.update(
        broker_read_url=platform.redis.url
    )  # where this process reads the queue's length
    try:
        status, body = platform.upload(RUN)  # no worker yet: the message waits in the queue
        assert status == 201, body
        pk = body["id"]
        wait(lambda: scoring_queue_length() == 1, 10, "the message to reach the queue")

        # The message goes the way of a worker killed after it received it.
        broker = redis_client.Redis.from_url(platform.redis.url)
        assert broker.delete(scoring_queue) == 1
        assert scoring_queue_length() == 0
        assert status_of(pk) == SubmissionStatus.QUEUED
    finally:
        app.conf.update(broker_read_url=previous)

    platform.env["BAKEOFF_REPUBLISH_QUEUED_AFTER_SECONDS"] = "2"
    began = time.monotonic()
    worker = platform.worker("republisher")
    took = wait(lambda: status_of(pk) == SubmissionStatus.SCORED, 60, "the run to be scored")
    print(f"scored {took:.1f} s after the worker was ready ({time.monotonic() - began:.1f} s)")
    assert "published again the tasks of runs left queued" in worker.log.read_text()
    assert Score.objects.filter(submission_id=pk).count() == 1
