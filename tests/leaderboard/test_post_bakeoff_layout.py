"""The post-bakeoff table as a reader sees it, in headless Chromium: its dates in the zone the
page leads with, and every column inside a 1,280-pixel window, in every language.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package (a skip, or a
failure where BAKEOFF_REQUIRE_TOOLS says the tools are required: tests/tools.py). Screenshots go
to ``test-artifacts/leaderboard/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from pytest_django.live_server_helper import LiveServer

from bakeoff.models import Bakeoff, Site, Submission, Track
from tests.factories import NEAR_PERFECT_RUN, SPLIT_RUN, WORKED_RUN, publish, rival, upload
from tests.hints import OnCommit
from tests.leaderboard.test_browser import ARTIFACTS, browser, chinese_font  # noqa: F401
from tests.leaderboard.test_post_bakeoff import post

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = 1280  # a laptop's window, in CSS pixels


@pytest.fixture
def official(
    bakeoff: Bakeoff, participant: User, closed: Track, site: Site, on_commit: OnCommit
) -> list[Submission]:
    """Two official runs, then the results published and the track opened, committed for the
    live server (test_post_bakeoff.py builds the same world once for its module, which a live
    server's thread cannot read)."""
    runs = [upload(participant, closed, WORKED_RUN, on_commit)]
    user, _ = rival(bakeoff, closed)
    runs.append(upload(user, closed, SPLIT_RUN, on_commit))
    publish(bakeoff)
    closed.post_bakeoff_open = True
    closed.save()
    return runs


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_the_post_bakeoff_table_fits_a_1280_pixel_window(
    browser: WebDriver,  # noqa: F811
    chinese_font: None,  # noqa: F811
    live_server: LiveServer,
    bakeoff: Bakeoff,
    closed: Track,
    official: list[Submission],
    on_commit: OnCommit,
    language: str,
) -> None:
    late, _ = rival(bakeoff, closed, "Latecomers")
    post(late, closed, NEAR_PERFECT_RUN, on_commit)
    browser.set_window_size(WIDE, 1000)
    browser.get(live_server.url + "/")
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    browser.get(live_server.url + "/bakeoffs/b2026/tracks/pk-closed/#post-bakeoff")
    browser.save_screenshot(str(ARTIFACTS / f"post-bakeoff-{language}.png"))
    width = browser.execute_script("return document.documentElement.clientWidth")
    assert width <= WIDE
    box = browser.execute_script(
        "const t = document.querySelector('table.post-bakeoff');"
        "const c = t.parentElement.getBoundingClientRect();"
        "const last = t.querySelector('thead th:last-child').getBoundingClientRect();"
        "return {scroll: t.parentElement.scrollWidth, client: t.parentElement.clientWidth,"
        " right: last.right, container: c.right};"
    )
    assert box["scroll"] <= box["client"], box  # nothing hidden to scroll to
    assert box["right"] <= box["container"] + 0.5, box
