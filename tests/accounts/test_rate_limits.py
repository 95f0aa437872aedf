"""Rate limits (issue 11): logins (django-axes: every failure recorded, an account locked out of
an address after five), API token failures per client address and uploads per site, each
answered 429 with Retry-After (JSON on the API)."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings
from rest_framework.authtoken.models import Token

from bakeoff.models import Bakeoff, Site, Submission, Track
from bakeoff.ratelimit import Limit, client_address, client_ip, hit, retry_after
from tests.factories import make_site, make_user

pytestmark = pytest.mark.django_db

COOLOFF = "900"  # AXES_COOLOFF_TIME, 15 minutes


def test_the_fifth_failed_login_locks_the_account_out_of_this_address(
    anonymous: Client, participant: User
) -> None:
    for attempt in range(1, 5):
        answer = anonymous.post("/accounts/login/", {"login": "pat", "password": f"wrong{attempt}"})
        assert answer.status_code == 200
    answer = anonymous.post("/accounts/login/", {"login": "pat", "password": "wrong5"})
    assert answer.status_code == 429
    assert answer["Retry-After"] == COOLOFF
    # Locked out: the right password is refused too, and nobody is signed in.
    answer = anonymous.post("/accounts/login/", {"login": "pat", "password": "pw-pat"})
    assert answer.status_code == 429
    assert "_auth_user_id" not in anonymous.session
    # Another address may still log in to the same account.
    other = Client(REMOTE_ADDR="192.0.2.7")
    assert other.post("/accounts/login/", {"login": "pat", "password": "pw-pat"}).status_code == 302


def test_every_failed_login_is_recorded_with_its_account_and_address(
    anonymous: Client, participant: User
) -> None:
    for _ in range(3):
        anonymous.post("/accounts/login/", {"login": "PAT", "password": "nope"})
    anonymous.post("/admin/login/", {"username": "nobody", "password": "nope"})
    attempt = AccessAttempt.objects.get(username="pat")
    assert attempt.failures_since_start == 3
    assert attempt.ip_address == "127.0.0.1"
    assert AccessFailureLog.objects.filter(username="pat").count() == 3
    assert AccessFailureLog.objects.filter(username="nobody").count() == 1
    assert "nope" not in str(AccessFailureLog.objects.values_list())  # no password kept


def test_the_admins_login_is_limited_too(anonymous: Client) -> None:
    User.objects.create_superuser("root", "root@example.org", "pw-root")
    answers = [
        anonymous.post("/admin/login/", {"username": "root", "password": "bad"}).status_code
        for _ in range(5)
    ]
    assert answers == [200, 200, 200, 200, 429]
    assert (
        anonymous.post("/admin/login/", {"username": "root", "password": "pw-root"}).status_code
        == 429
    )


def test_a_locked_out_api_login_answers_json(anonymous: Client, participant: User) -> None:
    for _ in range(5):
        anonymous.post("/accounts/login/", {"login": "pat", "password": "bad"})
    answer = anonymous.post(
        "/accounts/login/", {"login": "pat", "password": "pw-pat"}, HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 429
    assert answer.json()["detail"].startswith("Too many failed logins")


# -- API tokens -----------------------------------------------------------------------------------


def test_bad_tokens_are_answered_429_with_retry_after_once_over_the_limit(
    settings: Settings, participant: User, site: Site, closed: Track
) -> None:
    settings.BAKEOFF_RATE_LIMITS = {**settings.BAKEOFF_RATE_LIMITS, "token_failures": "5/300"}
    url = f"/api/bakeoffs/{closed.corpus.bakeoff.slug}/tracks/{closed.slug}/submissions/"
    attacker = Client()
    statuses = [
        attacker.get(url, HTTP_AUTHORIZATION=f"Token bad{i:036d}").status_code for i in range(7)
    ]
    assert statuses == [401, 401, 401, 401, 401, 429, 429]  # five failures, then wait
    answer = attacker.get(url, HTTP_AUTHORIZATION="Token also-bad")
    assert answer.status_code == 429
    assert answer["Content-Type"] == "application/json"
    # Over the limit, the address's own failures fade out of the sliding window within two windows.
    assert 0 < int(answer["Retry-After"]) <= 600
    assert answer.json()["code"] == "throttled"
    assert "Too many failed token authentications" in answer.json()["detail"]
    # A good token from the same address (a colleague behind the lab's NAT) is accepted, and bad
    # ones are still held back after it.
    token = Token.objects.create(user=participant)
    assert attacker.get(url, HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    assert attacker.get(url, HTTP_AUTHORIZATION="Token still-bad").status_code == 429
    elsewhere = Client(REMOTE_ADDR="192.0.2.9")
    assert elsewhere.get(url, HTTP_AUTHORIZATION="Token bad-once").status_code == 401


# -- uploads per site -----------------------------------------------------------------------------


def test_uploads_are_limited_per_site_on_the_api_and_the_page(
    settings: Settings,
    participant: User,
    site: Site,
    bakeoff: Bakeoff,
    closed: Track,
) -> None:
    settings.BAKEOFF_RATE_LIMITS = {**settings.BAKEOFF_RATE_LIMITS, "uploads": "3/60"}
    teammate = make_user("tess")
    site.members.add(teammate)
    url = f"/api/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/submissions/"
    statuses = []
    for member in (participant, teammate, participant, teammate):
        client = Client()
        client.force_login(member)
        answer = client.post(url, {"file": SimpleUploadedFile("run.txt", b"\x00\xff not a run")})
        statuses.append(answer.status_code)
    assert statuses == [400, 400, 400, 429]  # refused runs count: the site's fourth waits
    assert answer["Content-Type"] == "application/json"
    # Over the limit, the site's own events fade out of the sliding window within two windows.
    assert 0 < int(answer["Retry-After"]) <= 120
    assert answer.json()["code"] == "too_many_uploads"
    assert "Too many uploads from your site" in answer.json()["detail"]
    page = Client()
    page.force_login(participant)
    upload_page = f"/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/upload/"
    refused = page.post(upload_page, {"file": SimpleUploadedFile("run.txt", b"x")})
    assert refused.status_code == 429 and "Retry-After" in refused
    assert page.get(upload_page).status_code == 200  # the form itself is not limited
    # Another site of the same bakeoff uploads as usual.
    rival = make_user("rita")
    make_site(bakeoff, rival, [closed], name="Rivals", institution="Rival Institute")
    other = Client()
    other.force_login(rival)
    answer = other.post(url, {"file": SimpleUploadedFile("run.txt", b"\x00\xff")})
    assert answer.status_code == 400
    assert not Submission.objects.filter(site__isnull=False).exists()


# -- the limiter and the client's address ---------------------------------------------------------


def test_a_sliding_window_counts_and_tells_how_long_to_wait() -> None:
    limit = Limit(2, 60)
    assert hit("k", limit, now=120.0) is None
    assert hit("k", limit, now=130.0) is None
    # Two in this window: the second must fade out of the sliding window, 50 s from now.
    assert retry_after("k", limit, now=130.0) == 50
    assert hit("k", limit, now=170.5) == 30  # three now; at 200 the estimate is 3 * 2/3 = 2
    # A new fixed window, but the sliding one still holds the last three: no fresh start.
    assert hit("k", limit, now=180.0) == 40
    assert retry_after("k", limit, now=219.0) == 1  # 3 * 21/60 + 1 = 2.05
    assert retry_after("k", limit, now=221.0) is None  # 3 * 19/60 + 1 = 1.95


def test_a_burst_around_a_window_boundary_gets_the_limit_through_not_twice_it() -> None:
    limit = Limit(30, 60)
    before = [hit("b", limit, now=59.0 + n / 100) for n in range(30)]
    after = [hit("b", limit, now=60.5 + n / 100) for n in range(30)]
    assert before == [None] * 30
    assert after.count(None) == 0  # a fixed window would have let all 30 through


def test_the_address_behind_a_trusted_proxy_is_the_one_the_proxy_saw(settings: Settings) -> None:
    from django.test import RequestFactory

    settings.BAKEOFF_TRUSTED_PROXIES = ["127.0.0.1"]
    proxied = RequestFactory().get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.5"
    )
    assert client_address(proxied) == "203.0.113.5"
    direct = RequestFactory().get(
        "/", REMOTE_ADDR="198.51.100.1", HTTP_X_FORWARDED_FOR="203.0.113.5"
    )
    assert client_address(direct) == "198.51.100.1"  # anyone may write that header
    assert client_ip(RequestFactory().get("/", REMOTE_ADDR="")) is None  # axes records none
    assert client_address(RequestFactory().get("/", REMOTE_ADDR="")) == "unknown"


def test_the_lockout_keys_on_the_account_whatever_name_or_address_is_typed(
    anonymous: Client, participant: User
) -> None:
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(
        user=participant, email="pat@example.org", verified=True, primary=True
    )
    for attempt in range(4):
        answer = anonymous.post("/accounts/login/", {"login": "pat", "password": f"bad{attempt}"})
        assert answer.status_code == 200
    answer = anonymous.post("/accounts/login/", {"login": "Pat@Example.org", "password": "bad"})
    assert answer.status_code == 429, "the fifth failure, under the address"
    for typed in ("pat@example.org", "PAT@EXAMPLE.ORG", "pat", "PAT"):
        answer = anonymous.post("/accounts/login/", {"login": typed, "password": "pw-pat"})
        assert answer.status_code == 429, typed
        assert answer["Retry-After"] == COOLOFF
    assert "_auth_user_id" not in anonymous.session
    assert AccessAttempt.objects.get().username == "pat"


def test_a_name_of_no_account_is_counted_as_typed(anonymous: Client, participant: User) -> None:
    for _ in range(5):
        anonymous.post("/accounts/login/", {"login": "Nobody@Example.org", "password": "bad"})
    assert AccessAttempt.objects.get().username == "nobody@example.org"
    answer = anonymous.post("/accounts/login/", {"login": "pat", "password": "pw-pat"})
    assert answer.status_code == 302


def test_allauths_own_limit_answers_429_with_retry_after(anonymous: Client) -> None:
    # allauth: 20 sign-ups a minute per address ("signup": "20/m/ip"), every POST counted.
    for n in range(20):
        answer = anonymous.post("/accounts/signup/", {"username": f"new{n}"})
        assert answer.status_code == 200, n
    answer = anonymous.post("/accounts/signup/", {"username": "new20"})
    assert answer.status_code == 429
    assert answer["Retry-After"] == "60"  # the longest window of the sign-up's limits
    assert "try again in 1 minute." in answer.content.decode()
    answer = anonymous.post(
        "/accounts/signup/", {"username": "new21"}, HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 429
    assert answer.json()["code"] == "too_many_requests"
    assert answer["Retry-After"] == "60"
    answer = anonymous.post(
        "/accounts/signup/", {"username": "new22"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert "请在 1 分钟后再试。" in answer.content.decode()


def test_retry_after_is_the_longest_window_of_the_pages_limits(settings: Settings) -> None:
    from config.ratelimits import retry_after_allauth

    settings.ACCOUNT_RATE_LIMITS = {"reset_password": "20/m/ip,5/3m/key"}
    assert retry_after_allauth("account_reset_password") == 180
    assert retry_after_allauth("account_signup") == 60  # no limit named: a minute
    assert retry_after_allauth(None) == 60
