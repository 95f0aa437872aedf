"""Production settings are enforced (issue 11): a real secret key or no start, secure cookies,
HSTS, a Content-Security-Policy, `manage.py check --deploy` clean; server errors logged to stderr
as JSON lines with their traceback, path and user. Settings are read at import, so each variant
runs in a fresh process."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

from config.logging import JsonFormatter

from .settings_probe import REPO, probe_settings

pytestmark = pytest.mark.django_db

PRODUCTION = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/not-opened",
    "SECRET_KEY": "a-real-secret-for-this-test-only-" + "q8w7e6r5t4" * 3,
}
# What the test runs set to serve plain HTTP; a probe of the shipped defaults drops them.
OVERRIDES = (
    "SECRET_KEY",
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SECURE_COOKIES",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "ALLOWED_HOSTS",
    "LOG_FORMAT",
)


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in OVERRIDES and k != "DATABASE_URL"}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, *args], env=clean, cwd=REPO, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "key",
    [None, "embedded-mode-only-not-secret", "short", "django-insecure-" + "k" * 50, "a" * 60],
)
def test_the_server_refuses_to_start_without_a_real_secret_key(key: str | None) -> None:
    env = {"DATABASE_URL": PRODUCTION["DATABASE_URL"]}
    if key is not None:
        env["SECRET_KEY"] = key
    started = run(["-c", "import django; django.setup(); print('started')"], **env)
    assert started.returncode != 0
    assert "started" not in started.stdout
    assert "SECRET_KEY is missing or weak" in started.stderr


def test_the_embedded_mode_starts_without_a_secret_key() -> None:
    started = run(["-c", "import django; django.setup(); print('started')"])
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "started"


def test_manage_py_check_deploy_is_clean_for_the_production_settings() -> None:
    checked = run(["manage.py", "check", "--deploy", "--fail-level", "DEBUG"], **PRODUCTION)
    assert checked.returncode == 0, checked.stderr
    assert "System check identified no issues" in checked.stdout


def test_production_has_secure_cookies_hsts_and_a_content_security_policy() -> None:
    found = probe_settings(
        """
import json
from django.conf import settings
print(json.dumps({
    "session": settings.SESSION_COOKIE_SECURE,
    "csrf": settings.CSRF_COOKIE_SECURE,
    "hsts": settings.SECURE_HSTS_SECONDS,
    "redirect": settings.SECURE_SSL_REDIRECT,
    "debug": settings.DEBUG,
    "csp": "csp.middleware.CSPMiddleware" in settings.MIDDLEWARE,
    "log": settings.LOG_FORMAT,
}))
""",
        unset=OVERRIDES,
        **PRODUCTION,
    )
    assert found == {
        "session": True,
        "csrf": True,
        "hsts": 31536000,
        "redirect": True,
        "debug": False,
        "csp": True,
        "log": "json",
    }


def test_every_page_carries_the_policy_and_its_inline_styles_the_nonce(client: Client) -> None:
    answer = client.get("/")
    policy = answer["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self' 'nonce-" in policy
    assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None
    page = answer.content.decode()
    styles = re.findall(r"<style([^>]*)>", page)
    assert styles and all(f'nonce="{nonce.group(1)}"' in attrs for attrs in styles)
    assert "<script>" not in page  # inline scripts carry the nonce, or live in static files


# -- server errors are logged ---------------------------------------------------------------------

PROVOKE = """
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
setup_test_environment()
with override_settings(ROOT_URLCONF="tests.bakeoff.failing_urls"):
    answer = Client(raise_request_exception=False).get("/fail/?q=1")
print(answer.status_code)
"""


def test_a_server_error_in_production_is_logged_to_stderr_as_json_with_its_traceback() -> None:
    # The embedded database with the production logging and DEBUG off: no server needed.
    ran = run(["-c", PROVOKE], DEBUG="0", LOG_FORMAT="json")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "500"
    lines = [json.loads(line) for line in ran.stderr.splitlines() if line.startswith("{")]
    errors = [line for line in lines if line["level"] == "ERROR"]
    assert len(errors) == 1, ran.stderr
    error = errors[0]
    assert error["logger"] == "django.request"
    assert error["path"] == "/fail/"
    assert error["method"] == "GET"
    assert error["user"] == "anonymous"
    assert error["status"] == 500
    assert "Traceback (most recent call last)" in error["traceback"]
    assert "Boom: provoked by the test of error logging" in error["traceback"]
    assert "provoked" in error["exception"]
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", error["time"])


def test_the_log_line_names_the_signed_in_user(
    settings: Settings, participant: User, caplog: pytest.LogCaptureFixture
) -> None:
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.bakeoff.failing_urls"
    client = Client(raise_request_exception=False)
    client.force_login(participant)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        assert client.get("/fail/").status_code == 500
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    line = json.loads(JsonFormatter().format(record))
    assert (line["user"], line["path"], line["status"]) == ("pat", "/fail/", 500)
    assert "Boom" in line["traceback"]
