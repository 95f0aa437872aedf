"""Like a user, in headless Chromium: a participant uploads a run and finds it ranked; the
organiser publishes; an anonymous visitor sees the table and the plots; an organiser creates a
bakeoff, its zone picked from the menu, and a reader picks theirs.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package; skips without
them. Screenshots go to ``test-artifacts/leaderboard/`` (ignored by git).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.utils import timezone
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from bakeoff.models import Bakeoff
from tests.browser import POLL, check_page, chromium
from tests.factories import WORKED_RUN, make_bakeoff, make_corpus, make_site, make_user, track
from tests.tools import require_chinese_font

if TYPE_CHECKING:  # selenium is imported by the tests that find chromium
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "leaderboard"


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        yield driver


@pytest.fixture
def chinese_font() -> None:
    require_chinese_font()


class User:
    """A person at the browser."""

    def __init__(self, driver: WebDriver, server: str) -> None:
        self.driver, self.server = driver, server

    def find(self, css: str) -> WebElement:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str) -> list[WebElement]:
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def visit(self, path: str) -> None:
        self.driver.get(self.server + path)

    def log_in(self, username: str, next_path: str) -> None:
        self.driver.delete_all_cookies()
        self.visit(f"/accounts/login/?next={next_path}")
        self.find("input[name=login]").send_keys(username)
        self.find("input[name=password]").send_keys(f"pw-{username}")
        self.submit()

    def submit(self, shows: str = "") -> None:
        """Submit the page's form; wait for the next page, and for ``shows`` on it."""
        from selenium.common.exceptions import (
            NoSuchElementException,
            StaleElementReferenceException,
            WebDriverException,
        )
        from selenium.webdriver.support.ui import WebDriverWait

        before = self.driver.current_url
        page = self.find("main")

        def left(driver: Any) -> bool:
            # a form answered at its own address (a confirmation) leaves the URL as it was
            if driver.current_url != before:
                return True
            try:
                page.is_enabled()
            except WebDriverException:  # stale, or no longer in the document: gone
                return True
            return False

        self.find("form.card button[type=submit]").click()
        WebDriverWait(
            self.driver,
            30,
            poll_frequency=POLL,
            ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
        ).until(lambda driver: left(driver) and shows in self.find("main").text)
        check_page(self.driver)

    def wait_for(self, shows: str) -> None:
        """Wait until the page shows ``shows``: one the browser is still loading (a script's
        submit, a button's) may replace the element being read, which is not yet a failure."""
        from selenium.common.exceptions import (
            NoSuchElementException,
            StaleElementReferenceException,
        )
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(
            self.driver,
            30,
            poll_frequency=POLL,
            ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
        ).until(lambda driver: shows in self.find("main").text)
        check_page(self.driver)

    def log_out(self) -> None:
        self.driver.delete_all_cookies()

    def text(self) -> str:
        return self.find("main").text

    def screenshot(self, name: str) -> None:
        check_page(self.driver)  # a page reached by a click, as the data agreement
        height: int = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(1280, min(max(height + 160, 600), 4000))
        self.driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))
        self.driver.set_window_size(1280, 1000)


def setup_bakeoff() -> Bakeoff:
    organiser = make_user("olga", is_staff=True)
    bakeoff = make_bakeoff(organiser=organiser)  # test data out, deadline in two days
    corpus = make_corpus(bakeoff)  # BASE and TOP are scored once this commits
    make_site(bakeoff, make_user("pat"), [track(corpus)])
    return bakeoff


def test_a_run_is_scored_ranked_published_and_read(
    live_server: LiveServer, browser: WebDriver, tmp_path: Path, settings: Settings
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    bakeoff = setup_bakeoff()
    run = tmp_path / "run.txt"
    run.write_text(WORKED_RUN, encoding="utf-8")
    user = User(browser, live_server.url)
    track_page = "/bakeoffs/b2026/tracks/pk-closed/"

    # A participant uploads a run: it is scored during the request (embedded mode).
    user.log_in("pat", "/bakeoffs/b2026/tracks/pk-closed/upload/")
    user.find("input[type=file]").send_keys(str(run))
    user.submit(shows="Run accepted")
    assert "Scored" in user.find("main table").text
    user.screenshot("1-participant-run-scored")

    # Its page among the results: position, figures with raw counts, signature.
    href = user.find("main a[href*='/runs/']").get_attribute("href")
    assert href is not None
    user.driver.get(href)
    assert "rank 1" in user.text() and "c / N = 11 / 14" in user.text()
    user.screenshot("2-participant-run-page")

    # ...and finds it ranked on the track page, with its figures, beside BASE and TOP.
    user.visit(track_page)
    rows = [row.text for row in user.find_all("table.standings tbody tr")]
    assert rows[0].startswith("1 S01 Team A 1 14 0.786 0.2193 0.846 0.1929 0.815")
    assert [r.split()[0] for r in rows[1:]] == ["BASE", "TOP"]
    user.screenshot("3-participant-track-before-publication")

    # The organiser sees the track as the site sees it, and follows the run's link in that view.
    user.log_in("olga", track_page)
    for link in ("main a[href='?view=participant']", "main table.standings a[href*='/runs/']"):
        href = user.find(link).get_attribute("href")
        assert href is not None and "view=participant" in href
        user.driver.get(href)
        assert "as the members of S01 Team A see it" in user.text()
    assert "rank 1 among the runs you may see" in user.text()
    user.screenshot("3-organiser-previews-the-run-as-its-site")

    # The deadline passes; the organiser publishes, with site names.
    Bakeoff.objects.filter(pk=bakeoff.pk).update(
        submission_deadline=timezone.now() - timedelta(minutes=5)
    )
    user.log_in("olga", "/bakeoffs/b2026/results/publish/")
    user.find("input[name=mode][value=names]").click()
    user.submit(shows="Confirm the publication")
    assert "S01 Team A run 1" in user.find("main").text  # what will become visible
    user.screenshot("4-organiser-confirms")
    user.submit(shows="Results published.")
    user.screenshot("4-organiser-published")

    # An anonymous visitor sees the table and the plots.
    user.log_out()
    user.visit(track_page)
    assert "S01" in user.find("table.standings").text
    assert "Team A" in user.find("table.standings").text
    assert len(user.find_all("figure.plot svg")) == 2  # F with intervals; attribute profile
    user.screenshot("5-public-track")
    user.visit("/bakeoffs/b2026/results/")
    assert len(user.find_all("figure.plot svg")) == 2
    assert "PKc" in user.find("table.summary").text
    user.screenshot("6-public-results")


@pytest.mark.usefixtures("chinese_font")
def test_the_track_table_and_the_upload_page_in_simplified_chinese(
    live_server: LiveServer, browser: WebDriver, tmp_path: Path, settings: Settings
) -> None:
    """The language menu (its script submits on change), the upload page with the time left,
    and the track table, in 简体中文: screenshots zh-hans-upload.png and zh-hans-track.png."""
    from selenium.webdriver.support.ui import Select

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    setup_bakeoff()
    run = tmp_path / "run.txt"
    run.write_text(WORKED_RUN, encoding="utf-8")
    user = User(browser, live_server.url)
    upload_page = "/bakeoffs/b2026/tracks/pk-closed/upload/"

    user.log_in("pat", upload_page)
    assert "Upload a run for" in user.text()
    Select(user.find("form.language-menu select")).select_by_value("zh-hans")
    user.wait_for("上传结果")
    assert browser.current_url.endswith(upload_page)  # the same URL, now in Chinese
    assert user.find("html").get_attribute("lang") == "zh-hans"
    assert "截止时间：" in user.text() and "还剩 1 天 23 小时" in user.text()
    # The browser's own zone (the script's cookie) is shown beside the bakeoff's and UTC.
    assert "CST (Asia/Shanghai)" in user.text() and "UTC" in user.text()
    user.screenshot("zh-hans-upload")

    user.find("input[type=file]").send_keys(str(run))
    user.submit(shows="结果已于")
    assert "已评分" in user.find("main table").text

    user.visit("/bakeoffs/b2026/tracks/pk-closed/")
    headers = [th.text for th in user.find_all("table.standings thead th")]
    assert headers[:5] == ["排名", "参赛单位", "名称", "结果", "词数"]
    assert headers[5:8] == ["R", "Cr", "P"]  # the SIGHAN symbols stay
    rows = [row.text for row in user.find_all("table.standings tbody tr")]
    assert rows[0].startswith("1 S01 Team A 1 14 0.786 0.2193 0.846 0.1929 0.815")
    assert "按 F 值排序" in user.text()
    user.screenshot("zh-hans-track")


@pytest.mark.usefixtures("chinese_font")
def test_a_run_in_traditional_chinese_keeps_its_dates_whole_and_the_audit_trail_in_the_page(
    live_server: LiveServer, browser: WebDriver, tmp_path: Path, settings: Settings
) -> None:
    """In 繁體中文: the run is named 結果 1, no time of the runs list breaks inside (each zone's
    time on one line), and the organiser's audit trail, with its long checksums, fits in the
    window. Screenshots zh-hant-runs.png and zh-hant-audit.png."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    setup_bakeoff()
    run = tmp_path / "run.txt"
    run.write_text(WORKED_RUN, encoding="utf-8")
    user = User(browser, live_server.url)

    user.log_in("pat", "/bakeoffs/b2026/tracks/pk-closed/upload/")
    browser.add_cookie({"name": "django_language", "value": "zh-hant"})
    user.visit("/bakeoffs/b2026/tracks/pk-closed/upload/")
    user.find("input[type=file]").send_keys(str(run))
    user.submit(shows="結果已於")
    browser.set_window_size(900, 1000)  # narrow: the times must wrap between zones, not inside
    user.visit("/bakeoffs/b2026/submissions/")
    assert "S01 結果 1" in user.text() and "run 1" not in user.text()
    parts = user.find_all("main .instant .utc, main .instant .reader")
    assert parts
    lines = [
        browser.execute_script("return arguments[0].getClientRects().length", p) for p in parts
    ]
    assert lines == [1] * len(parts)
    # 測試項 (a header) and 已評分 (a status) are words: on one line, not a character per line
    cells = [user.find("main table thead th"), user.find("main td.status-scored")]
    lines = [
        browser.execute_script(
            "const r = document.createRange(); r.selectNodeContents(arguments[0]);"
            "return r.getClientRects().length;",
            cell,
        )
        for cell in cells
    ]
    assert lines == [1, 1], (lines, [cell.text for cell in cells])
    user.screenshot("zh-hant-runs")

    user.log_in("olga", "/bakeoffs/b2026/audit/")
    browser.add_cookie({"name": "django_language", "value": "zh-hant"})
    browser.set_window_size(1280, 1000)
    user.visit("/bakeoffs/b2026/audit/")
    assert "審計記錄" in user.text() and "sha256:" in user.text()
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    user.screenshot("zh-hant-audit")


def overflow(browser: WebDriver) -> int:
    """How far the page is wider than the window (0: no sideways scrolling)."""
    width: int = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return width


@pytest.mark.usefixtures("chinese_font")
def test_an_organiser_picks_the_bakeoffs_zone_from_the_menu_in_english_and_chinese(
    live_server: LiveServer, browser: WebDriver, settings: Settings
) -> None:
    """The organiser's bakeoff form: the zone is picked from the menu (the usual zones first), the
    timetable is read in that zone; the same form in 简体中文, a reader's zone in 繁體中文, and
    the pages with tables on a phone's width. Screenshots 7-organiser-bakeoff-form.png,
    zh-hans-bakeoff-form.png, zh-hant-account.png and zh-hans-narrow-bakeoff.png."""
    from selenium.webdriver.support.ui import Select

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    setup_bakeoff()
    user = User(browser, live_server.url)

    user.log_in("olga", "/bakeoffs/new/")
    zone = Select(user.find("select[name=time_zone]"))
    assert zone.first_selected_option.text == "UTC"  # the default of a new bakeoff
    usual = user.find("select[name=time_zone] optgroup")
    assert usual.get_attribute("label") == "Usual zones"
    assert "Asia/Taipei (UTC+08:00)" in usual.text
    zone.select_by_visible_text("Asia/Taipei (UTC+08:00)")
    user.find("input[name=name]").send_keys("SIGHAN 2027")
    user.find("input[name=slug]").send_keys("sighan2027")
    timetable = {
        "registration_opens": "2027-05-01T09:00",
        "registration_closes": "2027-06-01T09:00",
        "training_released": "2027-05-01T09:00",
        "test_released": "2027-07-25T09:00",
        "submission_deadline": "2027-07-27T20:00",
    }
    for name, value in timetable.items():  # the picker's keystrokes depend on the browser's locale
        browser.execute_script(
            "arguments[0].value = arguments[1]", user.find(f"input[name={name}]"), value
        )
    help_text = user.find("#id_time_zone_helptext")
    assert help_text.location["y"] > user.find("select[name=time_zone]").location["y"]  # under it
    user.screenshot("7-organiser-bakeoff-form")
    user.submit(shows="Bakeoff created as a draft")
    assert "2027-07-27 20:00 CST (Asia/Taipei)" in user.text()
    assert "2027-07-27 12:00 UTC" in user.text()

    browser.add_cookie({"name": "django_language", "value": "zh-hans"})
    user.visit("/bakeoffs/sighan2027/edit/")
    zone = Select(user.find("select[name=time_zone]"))
    assert zone.first_selected_option.get_attribute("value") == "Asia/Taipei"
    groups = [g.get_attribute("label") for g in user.find_all("select[name=time_zone] optgroup")]
    assert groups[:3] == ["常用时区", "非洲", "美洲"] and "亚洲" in groups
    assert "时区：" in user.text()  # the full-width colon of Chinese, not "时区:"
    assert user.find("input[name=submission_deadline]").get_attribute("value") == "2027-07-27T20:00"
    user.screenshot("zh-hans-bakeoff-form")

    # A phone's width: the form and the bakeoff page's tables stay inside the window.
    browser.set_window_size(420, 900)
    assert overflow(browser) <= 0
    user.visit("/bakeoffs/b2026/")
    assert "PK corpus" in user.text() and overflow(browser) <= 0
    browser.save_screenshot(str(ARTIFACTS / "zh-hans-narrow-bakeoff.png"))
    browser.set_window_size(1280, 1000)

    # A reader's own zone, from the same menu, in 繁體中文.
    user.log_in("pat", "/account/")
    Select(user.find("form.language-menu select")).select_by_value("zh-hant")
    user.wait_for("語言與時區")
    zone = Select(user.find("select[name=time_zone]"))
    assert zone.first_selected_option.text == "跟隨瀏覽器"
    zone.select_by_visible_text("Asia/Hong_Kong (UTC+08:00)")
    user.find("#reader-settings button[type=submit]").click()
    user.wait_for("設定已儲存")
    zone = Select(user.find("select[name=time_zone]"))
    assert zone.first_selected_option.get_attribute("value") == "Asia/Hong_Kong"
    user.screenshot("zh-hant-account")
