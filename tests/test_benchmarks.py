"""Every benchmark runs, in its smoke mode, so that a change that breaks one fails the suite.

Each script in benchmarks/ takes ``--smoke``: its steps on the smallest data, in seconds (the
production-path ones too: they start their stack once). Its figures are printed, never
judged here: a smoke run measures nothing. A new script is run here as soon as it exists, and
fails until it has a smoke mode (benchmarks/smoke.py says what one is).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.tools import missing_tool

pytestmark = pytest.mark.benchmark

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO / "benchmarks"
ICWB2 = REPO.parent / "shared" / "data" / "icwb2"
HELPERS = {"__init__.py", "smoke.py"}  # not benchmarks
# Scripts whose smoke mode another test runs, with assertions of its own (run once per suite, not
# here as well).
RUN_ELSEWHERE = {
    "archive_roundtrip.py": "tests/operations/test_archive_roundtrip.py",
    "readers.py": "tests/production/test_readers_benchmark.py",
    "restore_drill.py": "tests/operations/test_restore_drill.py",
}
# The scripts that start the production stack: PostgreSQL at 127.0.0.1:5432 (a database of the
# run's own, named by this variable), a redis-server, nginx.
PRODUCTION = {
    "database_outage.py": "OUTAGE_DATABASE_URL",
    "deadline_rush.py": "RUSH_DATABASE_URL",
    "throughput.py": "BENCH_DATABASE_URL",
}
TIMEOUT = 600


def scripts() -> list[str]:
    return sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name not in HELPERS)


def test_every_benchmark_is_run_here() -> None:
    assert {"score_speed.py", "buckets.py", "committee.py"} <= set(scripts())


def _postgresql_url(variable: str) -> str:
    base = os.environ.get("BAKEOFF_BENCHMARK_POSTGRESQL", "postgres://postgres@127.0.0.1:5432")
    return f"{base}/bakeoff_smoke_{variable.split('_')[0].lower()}_{uuid.uuid4().hex[:8]}"


def _drop(url: str) -> None:
    import psycopg2  # type: ignore[import-untyped]

    server_url, name = url.rsplit("/", 1)
    server = psycopg2.connect(server_url + "/postgres")
    server.autocommit = True
    with server.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    server.close()


def _require_production_stack(url: str) -> None:
    for program in ("redis-server", "nginx"):
        if shutil.which(program) is None:
            missing_tool(f"needs {program} (apt-get install {program.split('-')[0]})")
    try:
        import psycopg2

        psycopg2.connect(url.rsplit("/", 1)[0] + "/postgres").close()
    except Exception as error:
        missing_tool(f"needs PostgreSQL at {url.rsplit('/', 1)[0]}: {error}")


@pytest.mark.parametrize("script", scripts())
def test_the_benchmark_runs_in_its_smoke_mode(script: str) -> None:
    source = (BENCHMARKS / script).read_text(encoding="utf-8")
    if script in RUN_ELSEWHERE:
        assert (REPO / RUN_ELSEWHERE[script]).is_file()
        pytest.skip(f"{script}'s smoke mode runs in {RUN_ELSEWHERE[script]}")
    if '"--smoke"' not in source:
        pytest.fail(f"benchmarks/{script} has no --smoke mode: add one (benchmarks/smoke.py)")
    if not ICWB2.is_dir():
        missing_tool(f"the benchmarks read the SIGHAN 2005 data at {ICWB2}")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["PYTHONPATH"] = str(REPO)
    database = None
    if script in PRODUCTION:
        database = env[PRODUCTION[script]] = _postgresql_url(PRODUCTION[script])
        _require_production_stack(database)
    try:
        completed = subprocess.run(
            [sys.executable, str(BENCHMARKS / script), "--smoke"],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    finally:
        if database is not None:
            _drop(database)
    print(completed.stdout[-3000:])  # the figures, for the reader of the log; never judged
    assert completed.returncode == 0, completed.stderr[-3000:]
