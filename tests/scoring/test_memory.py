from __future__ import annotations

import platform
import subprocess
import sys

import pytest


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt options are glibc's")
def test_glibc_accepts_the_options_in_a_process_of_its_own() -> None:
    # In a child process, so the test session's allocator stays as it was.
    code = "from scoring.core.memory import keep_freed_memory as k; print(k())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
