"""The check every browser test's pages go through (tests/browser/__init__.py) can fail: axe-core
runs in the page and names the rule an element breaks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from pytest_django.live_server_helper import LiveServer

from bakeoff.models import Bakeoff, Corpus
from tests.browser import check_page, chromium

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    with chromium(width=360, height=900) as driver:
        yield driver


def test_a_link_told_apart_by_its_colour_alone_fails_the_page(
    browser: WebDriver, live_server: LiveServer, bakeoff: Bakeoff
) -> None:
    browser.get(live_server.url + "/bakeoffs/b2026/")  # checked, and passes
    browser.execute_script(
        """const p = document.createElement('p');
        p.innerHTML = 'Read <a href="#" style="text-decoration: none">the rules</a> first.';
        document.querySelector('main').prepend(p);"""
    )
    with pytest.raises(AssertionError, match="link-in-text-block") as failure:
        check_page(browser, again=True)
    assert "the rules" in str(failure.value)
    browser.refresh()  # the page as the server sends it, for the fixture's last check


def test_a_table_wider_than_a_phone_scrolls_from_the_keyboard(
    browser: WebDriver, live_server: LiveServer, corpus: Corpus
) -> None:
    browser.get(live_server.url + "/bakeoffs/b2026/")
    # The timetable made wider than the window (a long name in each column would do it): a table
    # with no link in it, which the keyboard could not otherwise reach.
    boxes: list[list[object]] = browser.execute_script(
        """document.querySelector('table.timetable').style.minWidth = '1200px';
        window.dispatchEvent(new Event('resize'));
        return [...document.querySelectorAll('.table-container')]
            .map(box => [box.scrollWidth > box.clientWidth, box.getAttribute('tabindex')])"""
    )
    assert [True, "0"] in boxes  # a table that scrolls is reachable from the keyboard ...
    assert all(tabindex == "0" for scrolls, tabindex in boxes if scrolls)
    assert all(tabindex is None for scrolls, tabindex in boxes if not scrolls)  # ... only it
    browser.execute_script(
        "document.querySelector('table.timetable').parentElement.removeAttribute('tabindex')"
    )
    with pytest.raises(AssertionError, match="scrollable-region-focusable"):
        check_page(browser, again=True)
    browser.refresh()
