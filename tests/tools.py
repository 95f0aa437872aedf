"""Programs of the machine that some tests start for real: nginx, redis-server, chromium, the
Chinese font that chromium's screenshots need, and axe-core from npm, which the browser tests run
in every page (tests/browser/__init__.py).

On a developer's machine a missing program skips its tests, naming the package to install.
`.ci/run` installs every one of them and sets BAKEOFF_REQUIRE_TOOLS=1, under which a missing
program fails its tests instead: a CI run must not pass by skipping the very component it exists
to exercise (a fresh machine once had no nginx, and the proxy's tests skipped quietly).
"""

import os
import shutil
import subprocess
from typing import NoReturn

import pytest

REQUIRE_TOOLS = "BAKEOFF_REQUIRE_TOOLS"


def missing_tool(reason: str) -> NoReturn:
    if os.environ.get(REQUIRE_TOOLS) == "1":
        pytest.fail(f"{reason}: {REQUIRE_TOOLS}=1 (set by .ci/run, which installs it)")
    pytest.skip(reason)


def require_chinese_font() -> None:
    """A screenshot of a Chinese page is there for a person to read; without a CJK font chromium
    draws every character as a box, and the test would pass on a page nobody can check."""
    fc_list = shutil.which("fc-list")
    families = ""
    if fc_list:
        listing = subprocess.run(
            [fc_list, ":lang=zh", "family"], capture_output=True, text=True, check=False
        )
        families = listing.stdout.strip()
    if not families:
        missing_tool("no Chinese font for the screenshots (apt-get install fonts-noto-cjk)")
