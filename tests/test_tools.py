from pathlib import Path

import pytest

from tests import browser
from tests.tools import REQUIRE_TOOLS, missing_tool, require_chinese_font


def test_a_missing_program_skips_on_a_developers_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_TOOLS, raising=False)
    with pytest.raises(pytest.skip.Exception, match="nginx is not installed"):
        missing_tool("nginx is not installed (apt-get install nginx)")


def test_a_missing_program_fails_where_ci_installed_every_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(REQUIRE_TOOLS, "1")
    with pytest.raises(pytest.fail.Exception, match=r"nginx is not installed .*\.ci/run"):
        missing_tool("nginx is not installed (apt-get install nginx)")


def test_a_machine_without_a_chinese_font_fails_where_ci_installed_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no fc-list: no font can be found
    monkeypatch.setenv(REQUIRE_TOOLS, "1")
    with pytest.raises(pytest.fail.Exception, match="fonts-noto-cjk"):
        require_chinese_font()


@pytest.mark.parametrize(
    ("required", "outcome"), [("1", pytest.fail.Exception), ("", pytest.skip.Exception)]
)
def test_a_machine_without_axe_core_skips_the_browser_tests_or_fails_where_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, required: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setattr(browser, "AXE", tmp_path / "axe.min.js")  # no npm ci here
    monkeypatch.setenv(REQUIRE_TOOLS, required)
    browser.axe_source.cache_clear()
    try:
        with pytest.raises(outcome, match="npm ci"):
            browser.axe_source()
    finally:
        browser.axe_source.cache_clear()
