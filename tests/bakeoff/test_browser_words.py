"""In headless Chromium, the pages issue 28 changed, in English, 简体 and 繁體: links inside
running text are told apart by an underline, not by their colour alone (WCAG 1.4.1, axe-core's
``link-in-text-block``). Screenshots go to ``test-artifacts/words/`` (ignored by git), to look
at each page in the three languages.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package; skips without
them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.live_server_helper import LiveServer

from bakeoff.models import Bakeoff, Registration, RegistrationStatus
from bakeoff.services import timetable
from tests.factories import make_bakeoff, make_corpus, make_site, make_user, track
from tests.leaderboard.test_browser import browser as browser  # the fixture

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "words"
LANGUAGES = ("en", "zh-hans", "zh-hant")


@pytest.fixture
def world() -> Iterator[User]:
    """A bakeoff whose deadline moved with a note, a registration refused without a reason, and
    a draft to open; answers its organiser."""
    organiser = make_user("olga", is_staff=True)
    bakeoff = make_bakeoff(organiser=organiser)
    corpus = make_corpus(bakeoff)
    pat = make_user("pat")
    make_site(bakeoff, pat, [track(corpus)], name="北京大学", approved=False)
    Registration.objects.update(status=RegistrationStatus.REFUSED)
    later = bakeoff.submission_deadline + timedelta(days=1)
    timetable.do_change_timetable(
        bakeoff, {"submission_deadline": later}, by=organiser, note="考场改期。"
    )
    draft = make_bakeoff(slug="draft", organiser=organiser, opened_at=None)
    make_corpus(draft)
    yield organiser
    Bakeoff.objects.all().delete()


def signed_in(browser: WebDriver, server: str, user: User, language: str) -> None:
    client = Client()
    client.force_login(user)
    browser.get(server + "/healthz/")
    browser.delete_all_cookies()
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": session, "path": "/"})
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})


PAGES = {
    "bakeoff": "/bakeoffs/b2026/",
    "edit": "/bakeoffs/b2026/edit/",
    "registrations": "/bakeoffs/b2026/registrations/",
    "audit": "/bakeoffs/b2026/audit/",
    "open": "/bakeoffs/draft/open/",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_changed_pages_underline_their_links_in_text(
    browser: WebDriver, live_server: LiveServer, world: User, language: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    signed_in(browser, live_server.url, world, language)
    for name, path in PAGES.items():
        browser.get(live_server.url + path)
        assert browser.find_element("css selector", "html").get_attribute("lang") == language
        height = browser.execute_script("return document.body.scrollHeight")
        browser.set_window_size(1280, min(max(int(height), 600), 4000))
        browser.save_screenshot(str(ARTIFACTS / f"{name}-{language}.png"))
        plain = browser.execute_script(
            """return [...document.querySelectorAll('main p a, main li a')]
                .filter(a => a.offsetParent !== null)
                .filter(a => !getComputedStyle(a).textDecorationLine.includes('underline'))
                .map(a => a.textContent)"""
        )
        assert plain == [], (path, plain)
    browser.get(live_server.url + "/bakeoffs/b2026/")
    assert "考场改期。" in browser.page_source
