"""The smoke mode of benchmarks/readers.py (issue 25): the production path as shipped (nginx from
the template, gunicorn, PostgreSQL, Redis as the cache) serves every target of the benchmark,
anonymous and signed in, without a failed request, and the last line says so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from django.db import connection

from tests.tools import missing_tool

from .stack import REPO, database_url, nginx_available, redis_available

# the database test pass (PostgreSQL): the benchmark makes a database of its own on that server
pytestmark = [pytest.mark.production, pytest.mark.django_db]


def test_the_readers_benchmark_runs_end_to_end() -> None:
    if not (nginx_available() and redis_available()):
        missing_tool("the benchmark needs nginx and redis-server")
    # a database of its own beside the test's (the benchmark drops and creates it)
    database = database_url() + "_readers"
    try:
        done = subprocess.run(
            [sys.executable, str(REPO / "benchmarks" / "readers.py"), "--smoke"],
            cwd=REPO,
            env={**os.environ, "BENCH_READERS_DATABASE_URL": database},
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:  # the benchmark leaves its database for a person to look at; a test run does not
        with connection._nodb_cursor() as cursor:
            name = connection.ops.quote_name(database.rsplit("/", 1)[1])
            cursor.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    for target in ("anon_page", "json", "participant_page", "static"):
        for readers in ("c10", "c50"):
            measured = figures[target][readers]
            assert measured["non_2xx"] == 0, (target, readers, measured)
            assert measured["rps"] > 0 and 0 < measured["p50_ms"] <= measured["p99_ms"]
    assert figures["anon_to_static_c50"] > 0
    assert figures["tool"] == ("wrk" if shutil.which("wrk") else "python")
