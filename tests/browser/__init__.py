"""The browser the tests drive: Debian's headless Chromium through chromedriver, with axe-core's
WCAG 2 A/AA rules run on every page it loads.

Every page a browser test visits is checked: ``driver.get`` runs axe once the page has loaded,
and the tests' helpers that wait for the next page after a click (a form's submit) or take a
screenshot call :func:`check_page`; so does the fixture's teardown, for the page left open. A
document is checked once (a mark on its window), and only an HTML one. Any
violation fails the test, naming the rule, the page and the elements.

axe-core comes from npm, pinned in ``package.json`` and ``package-lock.json`` beside this file
(``npm ci`` here: ``.ci/run`` and ``make dev`` do it where npm is installed). Without it the
browser tests skip, saying so, or fail where BAKEOFF_REQUIRE_TOOLS says the tools are required
(tests/tools.py), as without chromium.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.tools import missing_tool

if TYPE_CHECKING:  # selenium is imported by the tests that find chromium
    from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0 and 2.1, levels A and AA: the rules issue 28 asks the pages to pass.
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
CHECKED = "__bakeoffAxeChecked"  # set on a document's window once axe has run on it
# Seconds between two looks of a test waiting for the next page: it comes within milliseconds
# here, and Selenium's default half second was most of the time a form's submit took.
POLL = 0.05


@cache
def axe_source() -> str:
    if not AXE.exists():
        missing_tool(
            "needs axe-core from npm (cd tests/browser && npm ci; npm: apt-get install npm)"
        )
    return AXE.read_text(encoding="utf-8")


RUN_AXE = """
const [tags, flag, done] = arguments;
window[flag] = true;
axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']}).then(
    result => done(result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => n.target.join(' ') + '  ' + n.html.slice(0, 160)),
    }))),
    error => done([{id: 'axe-error', impact: 'critical', help: String(error), nodes: []}]),
);
"""


def axe_violations(driver: WebDriver) -> list[dict[str, Any]]:
    """axe-core's WCAG 2 A/AA violations on the page the browser shows now."""
    if driver.execute_script("return typeof axe") == "undefined":
        driver.execute_script(axe_source())
    violations: list[dict[str, Any]] = driver.execute_async_script(RUN_AXE, list(AXE_TAGS), CHECKED)
    return violations


def check_page(driver: WebDriver, *, again: bool = False) -> None:
    """Fail on any axe violation on the current page: an HTML page not yet checked (``again``:
    even if it was, as after the test changed it)."""
    fresh = driver.execute_script(
        "return document.contentType === 'text/html' && document.readyState === 'complete'"
        " && !window[arguments[0]]",
        CHECKED,
    )
    html = driver.execute_script("return document.contentType === 'text/html'")
    if not (fresh or (again and html)):
        return
    violations = axe_violations(driver)
    if violations:
        lines = [f"axe-core: {len(violations)} WCAG 2 A/AA violation(s) on {driver.current_url}"]
        for violation in violations:
            lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
            lines.extend(f"    {node}" for node in violation["nodes"][:10])
        raise AssertionError("\n".join(lines))


# One Chromium per test process, handed to each test in turn, reset between them: starting
# and stopping one cost half a second a test, and sending axe-core (half a megabyte) to every page
# loaded as much again.
_idle: list[WebDriver] = []


def _start() -> WebDriver:
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="needs selenium (requirements-dev)"
    )
    from selenium.webdriver.chrome.service import Service

    class Checked(webdriver.Chrome):  # type: ignore[name-defined,misc]
        profile = ""

        def get(self, url: str) -> None:
            super().get(url)
            check_page(self)

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver: WebDriver = Checked(service=Service(CHROMEDRIVER), options=options)
    driver.profile = profile  # type: ignore[attr-defined]
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    # In every document from now on, before its own scripts (check_page sends it where missing).
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": axe_source()})
    return driver


def _quit(driver: WebDriver) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver.profile, ignore_errors=True)  # type: ignore[attr-defined]


def quit_idle() -> None:
    """Stop the process's Chromium (at the end of the session)."""
    while _idle:
        _quit(_idle.pop())


def _reset(driver: WebDriver, width: int, height: int, downloads: Path | None) -> None:
    """The state a new Chromium starts in: one window, no cookie, nothing cached, and the size and
    download folder asked for (the page the last test left is left: each test begins with a
    ``get``, and leaving it for a blank one cost 0.1 s a test)."""
    for handle in driver.window_handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.set_window_size(width, height)
    behaviour = {"behavior": "default"}
    if downloads is not None:
        behaviour = {"behavior": "allow", "downloadPath": str(downloads)}
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", behaviour)


def _ready(width: int, height: int, downloads: Path | None) -> WebDriver:
    from selenium.common.exceptions import WebDriverException

    while _idle:
        driver = _idle.pop()
        try:
            _reset(driver, width, height, downloads)
            return driver
        except WebDriverException:  # left broken by the test before (a dialog, a crash)
            _quit(driver)
    driver = _start()
    _reset(driver, width, height, downloads)
    return driver


@contextmanager
def chromium(
    *, width: int = 1280, height: int = 1000, downloads: Path | None = None
) -> Iterator[WebDriver]:
    """A headless Chromium whose every ``get`` is checked by axe (and the last page on leaving),
    as a new one starts: one window, no cookie, the size and download folder asked for."""
    if not CHROMIUM or not CHROMEDRIVER:
        missing_tool("needs chromium and chromedriver (apt-get install chromium chromium-driver)")
    axe_source()
    driver = _ready(width, height, downloads)
    try:
        yield driver
        check_page(driver)
    except BaseException:
        _quit(driver)  # in whatever state the failure left it: the next test starts another
        raise
    _idle.append(driver)
