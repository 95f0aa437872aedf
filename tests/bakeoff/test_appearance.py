"""What a reader sees, measured in headless Chromium rather than read in the stylesheet: a date
kept whole on a narrow screen, an audit trail whose long values wrap inside the page, an error
message not in the colours of a success.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package (a skip, or a
failure where BAKEOFF_REQUIRE_TOOLS says the tools are required: tests/tools.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.live_server_helper import LiveServer

from bakeoff import audit
from bakeoff.models import Bakeoff
from tests.leaderboard.test_browser import browser  # noqa: F401  # the fixture

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = 360  # a phone's width, in CSS pixels
LONG_VALUE = "sha256:" + "0123456789abcdef" * 8  # no place to break but anywhere
# In a page's script: an element's computed colour (``color`` unless another property is named)
# as [red, green, blue].
RGB = (
    "const rgb = (e, property = 'color') =>"
    " getComputedStyle(e)[property].match(/\\d+/g).slice(0, 3).map(Number);"
)


def reddish(rgb: list[int]) -> bool:
    red, green, blue = rgb
    return red > green and red > blue


def greenish(rgb: list[int]) -> bool:
    red, green, blue = rgb
    return green > red and green > blue


@pytest.fixture
def narrow(browser: WebDriver) -> Iterator[WebDriver]:  # noqa: F811
    browser.set_window_size(NARROW, 900)
    yield browser


def logged_in(driver: WebDriver, server: LiveServer, user: User) -> None:
    """The browser carries ``user``'s session (made by the test client, no form filled)."""
    client = Client()
    client.force_login(user)
    driver.get(server.url + "/")
    cookie = client.cookies["sessionid"]
    driver.add_cookie({"name": "sessionid", "value": cookie.value, "path": "/"})


def test_a_date_is_never_broken_at_its_hyphens_on_a_narrow_screen(
    narrow: WebDriver, live_server: LiveServer, bakeoff: Bakeoff
) -> None:
    narrow.get(live_server.url + "/bakeoffs/b2026/")
    # An inline element cut over two lines has one box per line.
    boxes: list[int] = narrow.execute_script(
        "return [...document.querySelectorAll('.instant .utc, .instant .reader')]"
        ".map(e => e.getClientRects().length)"
    )
    assert boxes and set(boxes) == {1}


def test_the_audit_trail_wraps_a_long_value_inside_the_page(
    narrow: WebDriver, live_server: LiveServer, organiser: User, bakeoff: Bakeoff
) -> None:
    audit.record(bakeoff, audit.BAKEOFF_OPENED, "opened", actor=organiser, checksum=LONG_VALUE)
    logged_in(narrow, live_server, organiser)
    narrow.get(live_server.url + "/bakeoffs/b2026/audit/")
    found: dict[str, Any] = narrow.execute_script(
        """
        const cell = [...document.querySelectorAll('table.audit td:last-child')]
            .find(td => td.textContent.includes(arguments[0]));
        const table = cell.closest('table');
        const box = cell.getBoundingClientRect();
        const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
        return {lines: Math.round(box.height / parseFloat(getComputedStyle(cell).lineHeight)),
                cell: box.width, rem: rem,
                table: table.getBoundingClientRect().width,
                container: table.parentElement.getBoundingClientRect().width};
        """,
        LONG_VALUE,
    )
    # The value wraps (more than one line) in a cell wide enough to read (16rem) ...
    assert found["lines"] > 1
    assert found["cell"] >= 16 * found["rem"] - 1
    # ... narrower than the value written on one line would be.
    assert found["cell"] < len(LONG_VALUE) * found["rem"] / 2


def test_an_error_message_is_not_shown_in_the_colours_of_a_success(
    browser: WebDriver,  # noqa: F811
    live_server: LiveServer,
    bakeoff: Bakeoff,
) -> None:
    browser.get(live_server.url + "/bakeoffs/b2026/")
    # The two kinds of message as the views add them (django.contrib.messages' tags).
    colours: dict[str, list[int]] = browser.execute_script(
        RGB
        + """
        const list = document.createElement('ul');
        list.className = 'messages';
        list.innerHTML = '<li class="error">refused</li><li class="success">done</li>';
        document.querySelector('main').prepend(list);
        const [error, success] = list.querySelectorAll('li');
        return {error: rgb(error, 'backgroundColor'), success: rgb(success, 'backgroundColor')};
        """
    )
    assert reddish(colours["error"])  # a red, where a success is green
    assert greenish(colours["success"])


def test_the_timetable_mutes_the_steps_gone_by_and_a_passed_deadline_stays_an_alert(
    browser: WebDriver,  # noqa: F811
    live_server: LiveServer,
    bakeoff: Bakeoff,
) -> None:
    browser.get(live_server.url + "/bakeoffs/b2026/")
    colours: dict[str, list[list[int]]] = browser.execute_script(
        RGB
        + """
        const all = s => [...document.querySelectorAll(s)].map(e => rgb(e));
        // A passed deadline outside the timetable, as the upload page shows it.
        const deadline = document.createElement('p');
        deadline.innerHTML = '<span class="countdown passed">passed</span>';
        document.querySelector('main').prepend(deadline);
        return {gone: all('.timetable .countdown.passed'),
                ahead: all('.timetable .countdown:not(.passed)'),
                notes: all('p.muted').slice(0, 1),
                alert: all('main > p:first-child .countdown')};
        """
    )
    # The bakeoff opened its registration in the past and closes submissions in the future.
    assert colours["gone"] and colours["ahead"]
    assert all(colour == colours["notes"][0] for colour in colours["gone"])  # as the page's notes
    assert all(greenish(colour) for colour in colours["ahead"])
    (alert,) = colours["alert"]
    assert reddish(alert)


def test_a_registrations_status_word_is_never_cut_over_two_lines(
    browser: WebDriver,  # noqa: F811
    live_server: LiveServer,
    organiser: User,
    bakeoff: Bakeoff,
) -> None:
    from tests.factories import make_corpus, make_site, make_user, track

    corpus = make_corpus(bakeoff)
    for number in range(2):  # names and institutions that leave the status column narrow
        make_site(
            bakeoff,
            make_user(f"neural{number}"),
            [track(corpus)],
            name=f"S0{number} Neural Segmenters of Long Names",
            institution="Neural Segmenters Institute of Computational Linguistics, Department 7",
        )
    logged_in(browser, live_server, organiser)
    browser.add_cookie({"name": "django_language", "value": "zh-hans", "path": "/"})
    browser.get(live_server.url + "/bakeoffs/b2026/registrations/")
    found: list[tuple[str, list[int]]] = browser.execute_script(
        "return [...document.querySelectorAll('tbody td:last-child')].map(td =>"
        " [td.textContent.trim(), [...td.querySelectorAll('*')].concat([td])"
        ".map(e => e.getClientRects().length)])"
    )
    # The status, and the line boxes of it and of what holds it: 已批准, not 已批 over 准.
    assert [text for text, _ in found] == ["已批准", "已批准"]
    assert all(set(boxes) == {1} for _, boxes in found), found
