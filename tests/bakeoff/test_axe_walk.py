"""axe-core's WCAG 2 A/AA rules on every page an anonymous reader, a participant and an organiser
can reach in the demo, after a refused upload, a publication and an erratum (the world of
tests/bakeoff/test_chinese_walk.py), each reader in one of the three languages: the browser's
every ``get`` is checked (tests/browser/__init__.py). Screenshots of a few pages go to
``test-artifacts/axe/`` (ignored by git)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.conf import settings
from django.test import Client
from pytest_django.live_server_helper import LiveServer

from tests.bakeoff.test_chinese_walk import demo_world, walk
from tests.browser import CHECKED, chromium
from tests.hints import OnCommit

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "axe"
# Each reader walks in one language, so that every language is seen in one walk.
LANGUAGE = {"anonymous": "en", "participant": "zh-hans", "organiser": "zh-hant"}
ACCEPT = {"en": "en", "zh-hans": "zh-CN", "zh-hant": "zh-TW"}
SHOTS = ("/bakeoffs/demo/", "/bakeoffs/demo/tracks/pd-closed/", "/bakeoffs/demo/audit/")


@pytest.fixture
def demo_clients(on_commit: OnCommit) -> dict[str, Client]:
    """test_chinese_walk.py's world, committed for the live server."""
    return demo_world(on_commit)


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def as_reader(browser: WebDriver, server: str, client: Client, language: str) -> None:
    browser.get(server + "/healthz/")
    browser.delete_all_cookies()
    session = client.cookies.get(settings.SESSION_COOKIE_NAME)
    if session is not None:
        browser.add_cookie(
            {"name": settings.SESSION_COOKIE_NAME, "value": session.value, "path": "/"}
        )
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})


@pytest.mark.slow
def test_every_page_of_the_demo_passes_axe_for_every_reader(
    browser: WebDriver, live_server: LiveServer, demo_clients: dict[str, Client]
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = 0
    started = time.monotonic()
    for reader, client in demo_clients.items():
        language = LANGUAGE[reader]
        # one page of each kind: the runs' pages differ by their numbers only
        kinds = {
            re.sub(r"\d+", "N", path): path
            for path, _text, _flows in walk(client, ACCEPT[language])
        }
        paths = sorted(kinds.values())
        as_reader(browser, live_server.url, client, language)
        for path in paths:
            browser.get(live_server.url + path)  # axe runs on it
            assert browser.execute_script("return window[arguments[0]] === true", CHECKED), path
            assert browser.find_element("css selector", "html").get_attribute("lang") == language
            pages += 1
            if path in SHOTS:
                height = browser.execute_script("return document.body.scrollHeight")
                browser.set_window_size(1280, min(max(int(height), 600), 4000))
                name = path.strip("/").replace("/", "-")
                browser.save_screenshot(str(ARTIFACTS / f"{reader}-{name}-{language}.png"))
                browser.set_window_size(1280, 1000)
    assert pages > 30, pages
    print(f"axe: {pages} pages in {time.monotonic() - started:.0f} s")
