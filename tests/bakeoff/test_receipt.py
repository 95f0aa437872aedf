"""Receipt times: the proxy's stamp, believed only from a trusted proxy; the grace period."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory
from django.utils import timezone
from pytest_django import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff import receipt
from bakeoff.models import Bakeoff, Site
from tests.factories import PERFECT_RUN
from tests.hints import OnCommit

URL = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/"


def stamp(instant: datetime) -> str:
    return f"t={instant.timestamp():.3f}"  # as nginx's ${msec}


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("t=1700000000.123", datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=UTC)),
        ("1700000000.5", datetime(2023, 11, 14, 22, 13, 20, 500000, tzinfo=UTC)),
        ("t=1700000000123", datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=UTC)),
        ("t=1700000000123456", datetime(2023, 11, 14, 22, 13, 20, 123456, tzinfo=UTC)),
        ("", None),
        ("t=soon", None),
        ("t=-5", None),
        ("t=nan", None),
        ("t=inf", None),
    ],
)
def test_it_reads_the_proxy_stamp(header: str, expected: datetime | None) -> None:
    parsed = receipt.parse_request_start(header)
    if expected is None:
        assert parsed is None
    else:
        assert parsed is not None
        assert abs(parsed - expected) < timedelta(microseconds=2)


def test_it_believes_the_stamp_only_from_a_trusted_proxy(settings: Settings) -> None:
    settings.BAKEOFF_TRUSTED_PROXIES = ["10.0.0.0/8"]
    earlier = timezone.now() - timedelta(seconds=30)
    factory = RequestFactory()
    proxied = factory.get("/", REMOTE_ADDR="10.1.2.3", HTTP_X_REQUEST_START=stamp(earlier))
    forged = factory.get("/", REMOTE_ADDR="192.0.2.7", HTTP_X_REQUEST_START=stamp(earlier))
    assert abs(receipt.received_at(proxied) - earlier) < timedelta(milliseconds=2)
    assert receipt.received_at(forged) - earlier > timedelta(seconds=29)


def test_a_stamp_from_the_future_is_not_believed(settings: Settings) -> None:
    settings.BAKEOFF_TRUSTED_PROXIES = ["127.0.0.1"]
    later = timezone.now() + timedelta(hours=1)
    request = RequestFactory().get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_REQUEST_START=stamp(later))
    assert receipt.received_at(request) < later - timedelta(minutes=59)


def test_the_middleware_stamps_the_time_before_the_view_runs(db: None) -> None:
    from django.conf import settings

    assert settings.MIDDLEWARE[0] == "bakeoff.receipt.ReceiptTimeMiddleware"
    before = timezone.now()
    answer = Client().get("/healthz/")
    assert answer.status_code == 200
    seen = getattr(answer.wsgi_request, receipt.ATTRIBUTE)
    assert before <= seen <= timezone.now()


def api(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def upload(client: APIClient, request_start: str = "") -> int:
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    extra: dict[str, Any] = {"HTTP_X_REQUEST_START": request_start} if request_start else {}
    answer = client.post(URL, {"file": run}, format="multipart", **extra)
    return answer.status_code


@pytest.fixture
def deadline_passed(bakeoff: Bakeoff) -> Bakeoff:
    """The deadline was two seconds ago."""
    bakeoff.submission_deadline = timezone.now() - timedelta(seconds=2)
    bakeoff.save()
    return bakeoff


@pytest.mark.django_db
def test_a_run_that_reached_the_proxy_in_time_is_accepted_though_handled_late(
    deadline_passed: Bakeoff,
    participant: User,
    site: Site,
    settings: Settings,
    on_commit: OnCommit,
) -> None:
    settings.BAKEOFF_TRUSTED_PROXIES = ["127.0.0.1"]
    in_time = stamp(deadline_passed.submission_deadline - timedelta(milliseconds=300))
    with on_commit():
        assert upload(api(participant), in_time) == 201
    assert site.submissions.get().received_at < deadline_passed.submission_deadline


@pytest.mark.django_db
def test_a_forged_stamp_from_an_untrusted_address_is_ignored(
    deadline_passed: Bakeoff, participant: User, site: Site, settings: Settings
) -> None:
    settings.BAKEOFF_TRUSTED_PROXIES = []
    in_time = stamp(deadline_passed.submission_deadline - timedelta(minutes=5))
    assert upload(api(participant), in_time) == 403
    assert not site.submissions.exists()


@pytest.mark.django_db
def test_a_run_within_the_grace_period_is_accepted(
    deadline_passed: Bakeoff, participant: User, site: Site, on_commit: OnCommit
) -> None:
    client = api(participant)
    assert upload(client) == 403
    deadline_passed.grace_minutes = 1
    deadline_passed.save()
    with on_commit():
        assert upload(client) == 201


@pytest.mark.django_db
def test_a_run_after_the_grace_period_is_refused_and_says_so(
    bakeoff: Bakeoff, participant: User, site: Site
) -> None:
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=3)
    bakeoff.grace_minutes = 2
    bakeoff.save()
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    answer = api(participant).post(URL, {"file": run}, format="multipart")
    assert answer.status_code == 403
    assert "grace period of 2 minutes" in answer.json()["detail"]


@pytest.mark.django_db
def test_the_timetable_shows_the_grace_period(bakeoff: Bakeoff) -> None:
    page = Client().get(f"/bakeoffs/{bakeoff.slug}/")
    assert "Grace period" not in page.content.decode()
    bakeoff.grace_minutes = 10
    bakeoff.save()
    page = Client().get(f"/bakeoffs/{bakeoff.slug}/")
    assert "Grace period (10 min): runs accepted until" in page.content.decode()
