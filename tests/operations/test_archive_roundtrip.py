"""The smoke mode of benchmarks/archive_roundtrip.py: two bakeoffs archived, imported into a new
platform, and every export and stored file found equal."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.operations.drill import REPO

# A benchmark's smoke run (the only one: tests/test_benchmarks.py leaves this script to this test),
# in make test, not in make check.
pytestmark = pytest.mark.benchmark


def test_the_archive_round_trip_finds_nothing_different() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "archive_roundtrip.py"), "--smoke"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["exports_compared"] >= 40
    assert figures["files_compared"] >= 20
    assert (figures["exports_differing"], figures["files_differing"]) == (0, 0)
    for slug in ("drill", "sighan2005"):
        assert figures[slug]["zip_bytes"] > 0 and figures[slug]["rows"] > 0
        assert figures[slug]["export_s"] > 0 and figures[slug]["import_s"] > 0
