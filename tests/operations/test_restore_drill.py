"""The smoke mode of benchmarks/restore_drill.py: the drill runs end to end and finds the restored
platform equal to the one backed up, while runs arrived during the backup."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.operations.drill import REPO

# A benchmark's smoke run (the only one: tests/test_benchmarks.py leaves this script to this test),
# in make test, not in make check.
pytestmark = pytest.mark.benchmark


def test_the_restore_drill_finds_nothing_lost() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "restore_drill.py"), "--smoke"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["exports_compared"] >= 20
    assert figures["files_compared"] >= 10
    assert figures["uploads_after_snapshot"] == 2
    assert (
        figures["exports_differing"],
        figures["files_differing"],
        figures["rows_lost"],
        figures["tables_differing"],
        figures["uploads_restored"],
    ) == (0, 0, 0, 0, 0)
    assert figures["backup_s"] > 0 and figures["restore_s"] > 0
