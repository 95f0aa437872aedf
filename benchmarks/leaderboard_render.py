"""Speed of the leaderboard (issue 4): a track page and its JSON export at 30 and 300 runs.

    .venv/bin/python benchmarks/leaderboard_render.py [--repeat 15]

Builds, in a temporary embedded database, one bakeoff with the tiny corpus of the tests and two
tracks: one with 30 scored runs, one with 300 (synthetic scores stored as the platform stores them,
ranked once, like ``rank_track`` after each score). The results are published with site names, and
an anonymous visitor (who then sees every row) fetches the track page (table, note of pairs, the
confidence plot) and ``results.json`` through Django's test client, in-process: the time is the
server's, without network. Medians of ``--repeat`` requests after one warm-up request. Printed
for information: the time ``rank_track`` takes on the 300-run track (paid once per stored score).
Targets: page under 150 ms at 300 runs, and the same number of queries at 30 and at 300.
The last line is one JSON object: page_ms_300, json_ms_300, queries_30, queries_300.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Django is set up by setup_django() first
    from django.test import Client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TARGET_MS = 150.0


def setup_django(directory: str, *, smoke: bool = False) -> None:
    for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)  # the embedded mode: SQLite, tasks in-process
    os.environ["BAKEOFF_VAR_DIR"] = directory
    os.environ["MEDIA_ROOT"] = str(Path(directory) / "media")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from benchmarks.smoke import migrate

    migrate(smoke=smoke)


def build(sizes: tuple[int, int] = (30, 300)) -> dict[int, str]:
    """The track paths, by number of runs."""
    from tests.factories import (
        make_bakeoff,
        make_corpus,
        make_scored_runs,
        make_user,
        publish,
        track,
    )

    bakeoff = make_bakeoff(slug="bench", organiser=make_user("organiser"))
    corpus = make_corpus(bakeoff)
    paths = {}
    for count, condition in zip(sizes, ("closed", "open"), strict=True):
        the_track = track(corpus, condition)
        make_scored_runs(the_track, count, seed=count)
        paths[count] = f"/bakeoffs/bench/tracks/{the_track.slug}/"
    publish(bakeoff)
    return paths


def timed(client: Client, path: str, repeat: int) -> tuple[float, int]:
    """Median milliseconds of a GET, and its number of queries."""
    from django.db import connection

    executed: list[str] = []

    def count(
        execute: Callable[[str, Any, bool, dict[str, Any]], object],
        sql: str,
        params: object,
        many: bool,
        context: dict[str, Any],
    ) -> object:
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        answer = client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        client.get(path).content  # noqa: B018  (rendered in full)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(executed)


def rank_ms(path: str) -> float:
    """Median time of ``rank_track`` (what each stored score costs the track), 3 times."""
    from bakeoff.models import Track
    from leaderboard.services import rank_track

    track = Track.objects.get(
        slug=path.rstrip("/").rsplit("/", 1)[1], corpus__bakeoff__slug="bench"
    )
    times = []
    for _ in range(3):
        start = time.perf_counter()
        rank_track(track)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="tracks of 3 and 6 runs, each page once: seconds (the suite runs it; not the target)",
    )
    args = parser.parse_args()
    small, large = (3, 6) if args.smoke else (30, 300)
    if args.smoke:
        args.repeat = 1
    with tempfile.TemporaryDirectory(prefix="bakeoff-bench-") as directory:
        setup_django(directory, smoke=args.smoke)
        from django.test import Client

        paths = build((small, large))
        client = Client()
        figures: dict[str, float | int] = {}
        ranked = rank_ms(paths[large])
        print(f"ranking the {large}-run track once a score is stored: {ranked:.0f} ms")
        for count, path in paths.items():
            page_ms, page_queries = timed(client, path, args.repeat)
            json_ms, json_queries = timed(client, path + "results.json", args.repeat)
            print(
                f"{count:4d} runs: page {page_ms:7.1f} ms ({page_queries} queries), "
                f"JSON {json_ms:7.1f} ms ({json_queries} queries)"
            )
            size = "large" if count == large else "small"
            figures[f"page_ms_{size}"] = round(page_ms, 1)
            figures[f"json_ms_{size}"] = round(json_ms, 1)
            figures[f"queries_{size}"] = page_queries
            figures[f"json_queries_{size}"] = json_queries
    page_ok = figures["page_ms_large"] < TARGET_MS
    queries_ok = (figures["queries_small"], figures["json_queries_small"]) == (
        figures["queries_large"],
        figures["json_queries_large"],
    )
    print(f"page at {large} runs under {TARGET_MS:.0f} ms: {'ok' if page_ok else 'MISSED'}")
    print(f"same queries at {small} and {large} runs: {'ok' if queries_ok else 'MISSED'}")
    figures = {
        f"{key}_{count}": figures[f"{key}_{size}"]
        for key in ("page_ms", "json_ms", "queries", "json_queries")
        for count, size in ((small, "small"), (large, "large"))
    }
    keys = (f"page_ms_{large}", f"json_ms_{large}", f"queries_{small}", f"queries_{large}")
    print(json.dumps({key: figures[key] for key in keys}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
