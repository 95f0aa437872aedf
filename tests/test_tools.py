from pathlib import Path

import pytest

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
