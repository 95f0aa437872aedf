"""Like a person, in headless Chromium: an organiser invites a site from a CSV; its contact
follows the invitation mail's link, sets a password, registers for a track, accepts the corpus's
data agreement, downloads the test text, uploads a run, and receives the receipt and the score.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package; skips without
them. Screenshots go to ``test-artifacts/accounts/`` (ignored by git).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from bakeoff.models import Corpus, LicenceAcceptance, Site
from tests.browser import POLL, check_page, chromium
from tests.factories import WORKED_RUN, make_bakeoff, make_corpus, make_user, track

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "accounts"
LICENCE = "The PK corpus is for research in this bakeoff only; do not redistribute it."


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


@pytest.fixture
def browser(downloads: Path) -> Iterator[WebDriver]:
    with chromium(downloads=downloads) as driver:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        yield driver


class Person:
    def __init__(self, driver: WebDriver, server: str) -> None:
        self.driver, self.server = driver, server

    def find(self, css: str) -> WebElement:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def visit(self, path: str) -> None:
        self.driver.get(path if path.startswith("http") else self.server + path)

    def text(self) -> str:
        return self.find("main").text

    def submit(self, form: str = "form.card", shows: str = "") -> None:
        """Click the form's button and wait for the next page (and ``shows`` on it)."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.support.ui import WebDriverWait

        before = self.find("main")

        def left_the_page() -> bool:
            # While the next page loads, Chromium answers for the old element either "stale
            # element" or "node does not belong to the document": both mean it is gone.
            try:
                before.is_enabled()
            except WebDriverException:
                return True
            return False

        self.find(f"{form} button[type=submit]").click()
        WebDriverWait(
            self.driver, 30, poll_frequency=POLL, ignored_exceptions=(WebDriverException,)
        ).until(lambda driver: left_the_page() and shows in self.text())
        check_page(self.driver)

    def log_in(self, login: str, password: str) -> None:
        self.driver.delete_all_cookies()
        self.visit("/accounts/login/")
        self.find("input[name=login]").send_keys(login)
        self.find("input[name=password]").send_keys(password)
        self.submit()

    def screenshot(self, name: str) -> None:
        check_page(self.driver)  # a page reached by a click, as the data agreement
        self.driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def messages_to(address: str) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [address]]


def wait_for_file(folder: Path, timeout: float = 30) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [p for p in folder.iterdir() if not p.name.endswith(".crdownload")]
        if done:
            return done[0]
        time.sleep(POLL)
    raise AssertionError(f"no file downloaded to {folder} in {timeout} s")


def test_an_invited_site_joins_registers_accepts_downloads_uploads_and_hears_back(
    live_server: LiveServer,
    browser: WebDriver,
    downloads: Path,
    tmp_path: Path,
    settings: Settings,
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SITE_URL = live_server.url  # the links in mail lead to this server
    organiser = make_user("olga", is_staff=True)
    organiser.email = "olga@example.org"
    organiser.save()
    EmailAddress.objects.create(user=organiser, email=organiser.email, verified=True, primary=True)
    bakeoff = make_bakeoff(organiser=organiser, auto_approve=True)
    corpus = make_corpus(bakeoff)  # BASE and TOP are scored once this commits
    Corpus.objects.filter(pk=corpus.pk).update(licence=LICENCE)
    person = Person(browser, live_server.url)

    # The organiser invites a site from a CSV of sites.
    sites_csv = tmp_path / "sites.csv"
    sites_csv.write_text(
        "site name,institution,contact e-mail\nLin Lab,Lin University,lin@example.org\n"
    )
    person.log_in("olga", "pw-olga")
    person.visit("/bakeoffs/b2026/participants/")
    person.find("#invite-sites input[type=file]").send_keys(str(sites_csv))
    person.submit("#invite-sites", shows="1 site invited")
    assert "Lin Lab" in person.find("table.sites").text
    person.screenshot("1-organiser-invited-a-site")

    # The contact opens the invitation mail's link and sets a password.
    [invitation] = messages_to("lin@example.org")
    assert invitation.subject == "[Bakeoff 2026] You are invited to join Lin Lab"
    found = re.search(r"(http://\S+/invitations/\S+/)", str(invitation.body))
    assert found is not None
    browser.delete_all_cookies()
    person.visit(found.group(1))
    person.find("input[name=username]").send_keys("lin")
    person.find("input[name=password1]").send_keys("a long enough pass 1")
    person.find("input[name=password2]").send_keys("a long enough pass 1")
    person.screenshot("2-invitation-set-password")
    person.submit(shows="Welcome to Lin Lab")

    # ...lands on the registration of the site, and registers it for PKc.
    assert browser.current_url.endswith("/bakeoffs/b2026/register/")
    person.find(f"input[name=tracks][value='{track(corpus).pk}']").click()
    person.screenshot("3-register-for-a-track")
    person.submit(shows="Registered")
    assert "Approved" in person.text()

    # The corpus's download leads to the data agreement; accepting it downloads the file.
    person.visit("/bakeoffs/b2026/corpora/PK/")
    browser.find_element("link text", "Test text").click()
    assert "Data agreement of PK" in person.text() and LICENCE in person.text()
    person.screenshot("4-data-agreement")
    person.find("form.card button[type=submit]").click()
    downloaded = wait_for_file(downloads)
    assert downloaded.read_text(encoding="utf-8").startswith("结婚的和尚未结婚的")
    acceptance = LicenceAcceptance.objects.get()
    assert acceptance.accepted_by is not None and acceptance.accepted_by.username == "lin"

    # A run is uploaded: received, then scored (in the request, in the embedded mode).
    run = tmp_path / "run.txt"
    run.write_text(WORKED_RUN, encoding="utf-8")
    person.visit("/bakeoffs/b2026/tracks/pk-closed/upload/")
    person.find("input[type=file]").send_keys(str(run))
    person.submit(shows="Run accepted")
    person.screenshot("5-run-accepted")

    subjects = [m.subject for m in messages_to("lin@example.org")]
    assert subjects == [
        "[Bakeoff 2026] You are invited to join Lin Lab",
        "[Bakeoff 2026] Registration approved: PKc (S01)",
        "[Bakeoff 2026] Receipt: PKc run 1 received",
        "[Bakeoff 2026] PKc run 1 scored: F = 0.815",
    ]
    receipt = messages_to("lin@example.org")[2].body
    assert "Run number:   1 of 2" in str(receipt) and "(Asia/Shanghai)" in str(receipt)
    assert Site.objects.get(name="Lin Lab").members.get().email == "lin@example.org"

    # The organiser sees the mails that went out.
    person.log_in("olga", "pw-olga")
    person.visit("/bakeoffs/b2026/mail/")
    assert person.text().count("lin@example.org") == 4
    person.screenshot("6-organiser-mail-sent")
