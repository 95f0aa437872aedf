"""Programs of the machine that some tests start for real: nginx, redis-server, chromium.

On a developer's machine a missing program skips its tests, naming the package to install.
`.ci/run` installs every one of them and sets BAKEOFF_REQUIRE_TOOLS=1, under which a missing
program fails its tests instead: a CI run must not pass by skipping the very component it exists
to exercise (a fresh machine once had no nginx, and the proxy's tests skipped quietly).
"""

import os
from typing import NoReturn

import pytest

REQUIRE_TOOLS = "BAKEOFF_REQUIRE_TOOLS"


def missing_tool(reason: str) -> NoReturn:
    if os.environ.get(REQUIRE_TOOLS) == "1":
        pytest.fail(f"{reason}: {REQUIRE_TOOLS}=1 (set by .ci/run, which installs it)")
    pytest.skip(reason)
