"""Nothing waits for the sweep: the outbox publishes tasks once the broker is back, a run whose
worker died is taken again when its lease runs out, and server errors on the API answer JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery.utils.time import get_exponential_backoff_interval
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError, transaction
from django.test import Client, RequestFactory
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerDown

from bakeoff import outbox, services, tasks
from bakeoff.models import OutboxEntry, Site, Submission, SubmissionStatus, Track
from bakeoff.task_base import PlatformTask
from bakeoff.views.errors import server_error
from tests.factories import PERFECT_RUN

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def through_a_broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, ...]]]:
    """Tasks are published (not run in this process); what reaches the broker is listed."""
    from config.celery import app

    published: list[tuple[Any, ...]] = []
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False

    def apply_async(args: Any = None, kwargs: Any = None, **options: Any) -> None:
        published.append(tuple(args or ()))

    monkeypatch.setattr(tasks.score_submission, "apply_async", apply_async)
    yield published
    app.conf.task_always_eager = previous


def test_a_task_is_written_with_the_change_and_published_after_the_commit(
    through_a_broker: list[tuple[Any, ...]],
) -> None:
    with transaction.atomic():
        tasks.score_submission.delay_on_commit(41)
        assert OutboxEntry.objects.get().args == [41]
        assert through_a_broker == []
    assert through_a_broker == [(41,)]
    assert not OutboxEntry.objects.exists()


def test_a_rolled_back_change_publishes_nothing(through_a_broker: list[tuple[Any, ...]]) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        tasks.score_submission.delay_on_commit(41)
        raise RuntimeError
    assert through_a_broker == []
    assert not OutboxEntry.objects.exists()


def test_while_the_broker_is_away_the_task_waits_and_is_published_later(
    through_a_broker: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    working = tasks.score_submission.apply_async

    def broker_down(*_: Any, **__: Any) -> None:
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(tasks.score_submission, "apply_async", broker_down)
    with transaction.atomic():
        tasks.score_submission.delay_on_commit(7)
    entry = OutboxEntry.objects.get()
    assert entry.claimed_until is None and entry.attempts == 1
    assert outbox.publish_waiting(now=timezone.now() + timedelta(seconds=5)) == 0

    monkeypatch.setattr(tasks.score_submission, "apply_async", working)
    assert outbox.publish_waiting(now=timezone.now()) == 0  # too young: its commit may publish
    assert outbox.publish_waiting(now=timezone.now() + timedelta(seconds=5)) == 1
    assert through_a_broker == [(7,)]
    assert not OutboxEntry.objects.exists()


def test_an_entry_being_published_is_not_published_twice(
    through_a_broker: list[tuple[Any, ...]],
) -> None:
    pk = outbox.add("bakeoff.tasks.score_submission", [3], {}, {})
    now = timezone.now()
    OutboxEntry.objects.filter(pk=pk).update(claimed_until=now + timedelta(seconds=20))
    assert outbox.publish(pk, now=now) == "taken"
    assert outbox.publish(pk, now=now + timedelta(seconds=30)) == "published"
    assert through_a_broker == [(3,)]


@pytest.fixture
def scoring_run(site: Site, participant: Any, closed: Track) -> Submission:
    """A run waiting to be scored."""
    submission = services.submit_run(participant, closed, PERFECT_RUN.encode())
    Submission.objects.filter(pk=submission.pk).update(
        status=SubmissionStatus.QUEUED, attempts=0, claim="", lease_until=None
    )
    return submission


def test_a_run_held_under_a_live_lease_is_not_taken_by_another_task(
    scoring_run: Submission, settings: Any
) -> None:
    now = timezone.now()
    assert services.do_claim(scoring_run.pk, now=now, token="task-a")
    assert not services.do_claim(scoring_run.pk, now=now, token="task-b")
    assert services.do_claim(scoring_run.pk, now=now, token="task-a")  # redelivered: its own
    later = now + timedelta(seconds=settings.BAKEOFF_SCORING_LEASE_SECONDS + 1)
    assert services.do_claim(scoring_run.pk, now=later, token="task-b")  # the lease ran out


def test_a_run_whose_worker_died_is_queued_again_once_its_lease_runs_out(
    scoring_run: Submission, settings: Any, through_a_broker: list[tuple[Any, ...]]
) -> None:
    now = timezone.now()
    assert services.do_claim(scoring_run.pk, now=now, token="dead-task")
    assert services.do_requeue_abandoned(now=now) == []
    later = now + timedelta(seconds=settings.BAKEOFF_SCORING_LEASE_SECONDS + 1)
    assert services.do_requeue_abandoned(now=later) == [scoring_run.pk]
    scoring_run.refresh_from_db()
    assert scoring_run.status == SubmissionStatus.QUEUED and scoring_run.claim == ""
    assert through_a_broker == [(scoring_run.pk,)]
    assert services.do_requeue_abandoned(now=later) == []


def test_retries_outlast_a_database_outage_of_five_minutes() -> None:
    waits = [
        get_exponential_backoff_interval(
            PlatformTask.retry_backoff, attempt, PlatformTask.retry_backoff_max, full_jitter=False
        )
        for attempt in range(PlatformTask.max_retries)
    ]
    assert sum(waits) > 300
    assert max(waits) <= 60


def test_a_database_outage_answers_503_json_on_the_api() -> None:
    request = RequestFactory().post("/api/bakeoffs/x/tracks/y/submissions/")
    try:
        raise OperationalError("could not connect to server")
    except OperationalError:
        answer = server_error(request)
    assert answer.status_code == 503
    assert answer["Content-Type"] == "application/json"
    assert json.loads(answer.content)["code"] == "unavailable"
    assert answer["Retry-After"]


def test_an_unexpected_error_on_the_api_answers_json(
    site: Site, participant: Any, closed: Track, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.DEBUG = False

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "submit_run", broken)
    client = Client(raise_request_exception=False)
    client.force_login(participant)
    answer = client.post(
        f"/api/bakeoffs/{site.bakeoff.slug}/tracks/{closed.slug}/submissions/",
        {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())},
    )
    assert answer.status_code == 500
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == "server_error" and answer.json()["detail"]


def test_a_run_left_queued_is_published_again_once_the_queue_is_empty(
    scoring_run: Submission, settings: Any, through_a_broker: list[tuple[Any, ...]]
) -> None:
    """Its message went down with a worker that had received it but not started it."""
    later = timezone.now() + timedelta(seconds=settings.BAKEOFF_REPUBLISH_QUEUED_AFTER_SECONDS + 1)
    assert services.do_republish_lost(now=timezone.now(), queue_empty=True) == []  # too young
    assert services.do_republish_lost(now=later, queue_empty=False) == []  # it may be waiting
    assert services.do_republish_lost(now=later, queue_empty=True) == [scoring_run.pk]
    assert through_a_broker == [(scoring_run.pk,)]
    assert services.do_republish_lost(now=later, queue_empty=True) == []  # its clock restarted


def test_the_length_of_the_scoring_queue_is_unknown_when_the_broker_is_away(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from config.celery import app, scoring_queue_length
    from tests.production.stack import free_port

    previous = app.conf.broker_read_url
    app.conf.update(broker_read_url=f"redis://127.0.0.1:{free_port()}/0")
    try:
        assert scoring_queue_length() is None
    finally:
        app.conf.update(broker_read_url=previous)
    assert "the length of the scoring queue is unknown" in caplog.text
