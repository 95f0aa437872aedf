"""What the README promises of `make demo` on a fresh machine: the programs it needs beyond
python3 are named, and the address it serves on can be changed when port 8000 is taken."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def demo_paragraph() -> str:
    """The README's paragraph that starts with `make demo`."""
    return next(p for p in README.split("\n\n") if p.startswith("`make demo`"))


def test_the_readme_names_every_package_the_makefile_asks_for() -> None:
    asked = re.findall(r"apt-get install ([\w.-]+)", (REPO / "Makefile").read_text())
    assert asked  # the Makefile says what to install when a program is missing
    installed = {
        package
        for named in re.findall(r"apt-get install ([\w. -]+)`", README)
        for package in named.split()
    }
    assert set(asked) <= installed


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_demo_serves_where_demo_address_says() -> None:
    planned = subprocess.run(
        ["make", "-n", "demo", "DEMO_ADDRESS=127.0.0.1:8123"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert re.search(r"SITE_URL=http://127\.0\.0\.1:8123 \S+ manage\.py setup_demo", planned)
    assert "manage.py runserver 127.0.0.1:8123 ||" in planned
    # and says how to choose another port when that one is taken
    assert "could not serve on 127.0.0.1:8123" in planned and "make demo DEMO_ADDRESS=" in planned
    assert "make demo DEMO_ADDRESS=" in demo_paragraph()
