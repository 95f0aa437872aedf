"""Throughput of the production path on this machine (issue 12; run by hand, not a test).

    .venv/bin/python benchmarks/throughput.py [--runs 40] [--paced 60] [--track-size 300]
        [--only throughput|analysis]
    .venv/bin/python benchmarks/throughput.py --smoke  # seconds: 3 runs each (4/s), 6 analysed

Starts the production path here: a database of its own on the PostgreSQL at 127.0.0.1:5432
(``bakeoff_bench_`` and a random suffix, dropped at the end; ``BENCH_DATABASE_URL`` names
another, dropped and created again and kept), Redis at 127.0.0.1:6379 (db 15, queues of its
own), gunicorn on a free port (or ``BENCH_GUNICORN_PORT``), and Celery workers per queue as
subprocesses; files on the local file system (one machine). Every run has the size of the
SIGHAN 2005 pku test set (104,372 gold words): the gold with words joined and split at random, a
different mix per run.

1. ``runs_per_min_1``, ``runs_per_min_2``: ``--runs`` runs are uploaded through the API to a fresh
   track while no scoring worker runs; then a scoring worker with 1 (then 2) processes starts, and
   the runs (and the track's BASE and TOP) scored per minute are counted from the moment it is
   ready until the last is scored.
2. ``p50_upload_to_ranked_ms``, ``p95_upload_to_ranked_ms``: ``--paced`` runs uploaded one per
   second to a third track, with the scoring (2 processes) and analysis workers running: the time
   from the start of each upload's request to its row in the track's standings (ranked).
3. ``analysis_after_300_ms``: a track that already holds ``--track-size`` scored and analysed runs
   (BASE and TOP included; ``analysis_full_300_ms`` is that full analysis, in this process)
   receives one more run through the API, then another: the time from the second's score being
   stored to the track's analysis that includes it being stored (the first, with an analysis
   worker that has not yet loaded the track's gold attributes, is ``analysis_after_300_cold_ms``).

The last line is one JSON object with these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ICWB2 = Path(os.environ.get("ICWB2_PATH", REPO.parent / "shared" / "data" / "icwb2"))
RUN_ID = uuid.uuid4().hex[:6]
OWN_DATABASE = "BENCH_DATABASE_URL" not in os.environ
DATABASE = os.environ.get(
    "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/bakeoff_bench_{RUN_ID}"
)
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/15")
WORK = Path(tempfile.mkdtemp(prefix="bakeoff-bench-"))
PREFIX = f"bench-{RUN_ID}-"

sys.path.insert(0, str(REPO))
from tests.production.runs import (  # noqa: E402
    drop_database,
    production_environment,
    recreate_database,
    run_maker,
)
from tests.production.runs import upload as post_run  # noqa: E402

# The environment of every process: this one (which builds the data), gunicorn and the workers.
# One site uploads every run: the per-site upload limit (30 a minute) is not what is measured.
production_environment(
    DATABASE,
    BROKER,
    PREFIX,
    WORK,
    BAKEOFF_MAX_UPLOAD_BYTES=str(64 << 20),
    BAKEOFF_UPLOAD_LIMIT="100000/60",
)

# An open track refuses a run without a description (its statement of resources).
DESCRIPTION = "A benchmark run: the gold with words joined and split at random."


recreate_database(DATABASE)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

import scoring  # noqa: E402
from analysis.models import RunAnalysis, TrackAnalysis  # noqa: E402
from analysis.services import do_analyse_track  # noqa: E402
from bakeoff import icwb2, services  # noqa: E402
from bakeoff.models import Bakeoff, Score, Submission, SubmissionStatus, Track  # noqa: E402
from benchmarks.smoke import migrate  # noqa: E402
from leaderboard.models import TrackStanding  # noqa: E402
from tests.factories import make_bakeoff, make_site, make_user  # noqa: E402
from tests.production.stack import CeleryWorker, Gunicorn, stop_all  # noqa: E402

Started = CeleryWorker | Gunicorn


def worker(queue: str, processes: int) -> CeleryWorker:
    (started,) = workers((queue, processes))
    return started


def workers(*wanted: tuple[str, int]) -> list[CeleryWorker]:
    """A worker of ``processes`` processes per ``(queue, processes)``, started together and each
    ready (consuming its queue) when this returns: a worker takes a second or two to start."""
    return ready(starting(*wanted))


def starting(*wanted: tuple[str, int]) -> list[CeleryWorker]:
    """The workers of ``workers``, started but not yet waited for."""
    started = []
    for queue, processes in wanted:
        name = f"{queue}-{processes}-{uuid.uuid4().hex[:4]}"
        cache = {"BAKEOFF_CACHE_DIR": str(WORK / f"cache-{queue}")}
        started.append(
            CeleryWorker.start(
                name, [PREFIX + queue], cache, WORK / f"{name}.log", concurrency=processes
            )
        )
    return started


def ready(started: list[CeleryWorker]) -> list[CeleryWorker]:
    for each in started:
        each.wait_until_ready(timeout=120)
    return started


def purge(*queues: str) -> None:
    import redis

    broker = redis.Redis.from_url(BROKER)
    for queue in queues:
        broker.delete(PREFIX + queue)


def upload(port: int, token: str, track: Track, data: bytes) -> int:
    """The run's primary key once the API has accepted it."""
    path = f"/api/bakeoffs/{track.corpus.bakeoff.slug}/tracks/{track.slug}/submissions/"
    answer = post_run(port, path, token, data, description=DESCRIPTION)
    if answer["status"] != 201:
        raise RuntimeError(f"upload refused: {answer}")
    pk: int = answer["body"]["id"]
    return pk


def wait_until(condition: Callable[[], bool], timeout: float = 1800, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout} s")
        time.sleep(step)


FINISHED = (SubmissionStatus.SCORED, SubmissionStatus.FAILED)


def all_scored(track: Track) -> bool:
    return not track.submissions.exclude(status__in=FINISHED).exists()


# A smoke run stops its workers in the background (a worker's shutdown takes a second or two, and
# the next step starts workers of its own); the full benchmark waits, so that no process of a step
# shares the machine with the next step's measurement.
STOPPING: list[threading.Thread] = []
STOP_IN_BACKGROUND = False


@contextmanager
def running(*processes: Started) -> Iterator[None]:
    try:
        yield
    finally:
        stops = [partial(process.stop, timeout=60) for process in processes]
        if STOP_IN_BACKGROUND:
            STOPPING.append(threading.Thread(target=stop_all, args=stops))
            STOPPING[-1].start()
        else:
            stop_all(*stops)


def stopped() -> None:
    """Every process stopped in the background has ended."""
    while STOPPING:
        STOPPING.pop().join()


def add_corpus(bakeoff: Bakeoff, abbreviation: str, conditions: tuple[str, ...]) -> list[Track]:
    name = f"PKU ({abbreviation})"
    corpus = icwb2.add_corpus(
        bakeoff,
        ICWB2,
        icwb2.CORPORA[3],
        conditions=conditions,
        name=name,
        abbreviation=abbreviation,
        max_runs=500,
    )
    assert corpus is not None
    return list(corpus.tracks.all())


def throughput(
    port: int, token: str, track: Track, runs: list[bytes], processes: int
) -> tuple[float, float]:
    """Runs scored per minute by a scoring worker of ``processes`` processes, its queue full, and
    the CPU time its processes spent per run (milliseconds: what other processes' turns on a
    busy machine do not change)."""
    pks = [upload(port, token, track, data) for data in runs]
    scoring_worker = worker("scoring", processes)
    session = scoring_worker.process.pid
    started, cpu = time.monotonic(), session_cpu_s(session)
    with running(scoring_worker):
        wait_until(lambda: not unscored(pks))
        elapsed = time.monotonic() - started
        cpu = session_cpu_s(session) - cpu
    return len(pks) / elapsed * 60, cpu * 1000 / len(pks)


def session_cpu_s(session: int) -> float:
    """CPU seconds (user and system) of the live processes of a session (a worker and its pool)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[3]) == session:  # after the name: state, ppid, pgrp, session, ...
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes) as /proc/loadavg has them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def unscored(pks: list[int]) -> bool:
    return Submission.objects.filter(pk__in=pks).exclude(status__in=FINISHED).exists()


def paced(
    port: int, token: str, track: Track, runs: list[bytes], interval: float = 1.0
) -> list[float]:
    """Milliseconds from each upload's request to its ranked row, one upload per ``interval``
    seconds."""
    sent: dict[int, float] = {}
    ranked: dict[int, float] = {}
    done = threading.Event()

    def watch() -> None:
        while not done.is_set() or len(ranked) < len(sent):
            pending = [pk for pk in list(sent) if pk not in ranked]
            if pending:
                seen = TrackStanding.objects.filter(submission_id__in=pending)
                now = time.monotonic()
                for pk in seen.values_list("submission_id", flat=True):
                    ranked[pk] = now
            time.sleep(0.02)
        connection.close()

    watcher = threading.Thread(target=watch)
    watcher.start()
    for data in runs:
        began = time.monotonic()
        pk = upload(port, token, track, data)
        sent[pk] = began
        time.sleep(max(0.0, interval - (time.monotonic() - began)))
    done.set()
    watcher.join(timeout=600)
    return [(ranked[pk] - sent[pk]) * 1000 for pk in sent]


def analysed(track: Track, pk: int) -> tuple[Score, TrackAnalysis]:
    """The score of a submission and the first stored analysis of its track that includes it."""
    wait_until(lambda: Score.objects.filter(submission_id=pk).exists())
    score = Score.objects.get(submission_id=pk)
    wait_until(lambda: score.pk in TrackAnalysis.objects.get(track=track).scores, timeout=600)
    return score, TrackAnalysis.objects.get(track=track)


# Where a scoring task's time goes: the parts that run in parallel (reading the file, scoring it,
# computing the track's ranking) and the part that runs one at a time per track (storing the
# ranking, under a lock on the track's ranking).
PARTS = (
    ("read_ms", "read the run", "bakeoff/services/uploads.py", "read_stored"),
    ("score_ms", "score it", "scoring/core/score.py", "score_run_details"),
    ("store_ms", "store the score", "bakeoff/services/recovery.py", "do_store_score"),
    ("rank_ms", "  of which compute the ranking", "leaderboard/services/ranking.py", "_compute"),
    ("rank_locked_ms", "  and store it (locked)", "leaderboard/services/ranking.py", "_store"),
)


def profile(track: Track, site: Any, user: Any, runs: list[bytes]) -> dict[str, float]:
    """Score runs in this process under cProfile: milliseconds per run in each part."""
    import cProfile
    import pstats

    from bakeoff.services import do_score_submission

    pks = [
        services.do_accept_run(site, track, data.decode(), user=user, now=bakeoff_now()).pk
        for data in runs
    ]
    profiler = cProfile.Profile()
    started = time.monotonic()
    profiler.enable()
    for pk in pks:
        do_score_submission(pk)
    profiler.disable()
    total = (time.monotonic() - started) * 1000 / len(pks)
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    split = {"task_ms": total}
    for key, _, path, function in PARTS:
        found = [
            entry[3]
            for (file, _, name), entry in stats.items()
            if name == function and file.endswith(path)
        ]
        cumulative = sum(found)
        split[key] = cumulative * 1000 / len(pks)
    return split


def profile_analysis(site: Any, user: Any, track: Track, data: bytes) -> list[str]:
    """One more run scored here, then the track's analysis under cProfile: the functions of the
    platform and the library that took the most time, cumulated."""
    import cProfile
    import pstats

    from bakeoff.services import do_score_submission

    pk = services.do_accept_run(site, track, data.decode(), user=user, now=bakeoff_now()).pk
    do_score_submission(pk)
    purge("scoring", "analysis")
    profiler = cProfile.Profile()
    started = time.monotonic()
    profiler.enable()
    do_analyse_track(track.pk)
    profiler.disable()
    lines = [f"the whole analysis: {(time.monotonic() - started) * 1000:.0f} ms"]
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    ours = [
        (entry[3], f"{Path(file).parent.name}/{Path(file).name}:{name}")
        for (file, _, name), entry in stats.items()
        if any(f"/{app}/" in file for app in ("analysis", "scoring", "bakeoff", "leaderboard"))
        and "site-packages" not in file
    ]
    for cumulative, where in sorted(ours, reverse=True)[1:13]:
        lines.append(f"{where}: {cumulative * 1000:.0f} ms")
    # and the functions of any package that spent the most time themselves (JSON, the driver)
    own = [
        (entry[2], f"{Path(file).parent.name}/{Path(file).name}:{name}")
        for (file, _, name), entry in stats.items()
    ]
    for spent, where in sorted(own, reverse=True)[:8]:
        lines.append(f"(itself) {where}: {spent * 1000:.0f} ms")
    return lines


def track_size(track: Track) -> str:
    return f"{track.submissions.count()} runs"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="runs per throughput measurement")
    parser.add_argument("--paced", type=int, default=60, help="runs uploaded one per second")
    parser.add_argument("--track-size", type=int, default=300, help="runs already analysed")
    parser.add_argument(
        "--only",
        choices=("throughput", "analysis"),
        help="measure the scoring throughput (1.) only, or the analysis (3.) only",
    )
    parser.add_argument("--profiled", type=int, default=10, help="runs scored under cProfile")
    parser.add_argument("--smoke", action="store_true", help="3 runs each, a track of 6")
    options = parser.parse_args()
    options.interval = 1.0  # seconds between the paced uploads
    if options.smoke:
        options.runs, options.paced, options.track_size, options.profiled = 3, 3, 6, 2
        options.interval = 0.25
        global STOP_IN_BACKGROUND
        STOP_IN_BACKGROUND = True
    try:
        measure(options)
    finally:
        stopped()
        if OWN_DATABASE:
            drop_database(DATABASE)


def measure(options: argparse.Namespace) -> None:
    if not ICWB2.is_dir():
        sys.exit(f"icwb2-data not found at {ICWB2}")

    migrate(smoke=options.smoke)
    bakeoff = make_bakeoff(slug="bench")
    throughput_1, throughput_2 = add_corpus(bakeoff, "PKU", ("closed", "open"))
    (paced_track,) = add_corpus(bakeoff, "PKB", ("closed",))
    (full_track,) = add_corpus(bakeoff, "PKC", ("closed",))
    tracks = [throughput_1, throughput_2, paced_track, full_track]
    user = make_user("bench")
    site = make_site(bakeoff, user, tracks)
    token = Token.objects.create(user=user).key
    gold = (ICWB2 / "gold" / "pku_test_gold.utf8").read_text(encoding="utf-8-sig")
    test = (ICWB2 / "testing" / "pku_test.utf8").read_text(encoding="utf-8-sig")
    make = run_maker(gold, test)
    print(f"work directory {WORK}, queues {PREFIX}*", flush=True)

    port = int(os.environ.get("BENCH_GUNICORN_PORT", "0")) or None  # else a free one
    # The workers that score every track's BASE and TOP start while gunicorn does.
    base_and_top = starting(("scoring", 2))
    try:
        web = Gunicorn.start({}, WORK / "gunicorn.log", options=("--timeout", "120"), port=port)
    except BaseException:
        stop_all(*(started.stop for started in base_and_top))
        raise
    figures: dict[str, Any] = {}
    seed = iter(range(1, 1_000_000))
    with running(web):
        # Every track's BASE and TOP first, so that the measures below count uploads only (and
        # the scoring workers' gold index cache is built).
        with running(*base_and_top):
            ready(base_and_top)
            wait_until(lambda: all(all_scored(t) for t in tracks))
        purge("analysis")

        if options.only != "analysis":
            measure_scoring(options, figures, web.port, token, tracks, site, user, make, seed)
        if options.only != "throughput":
            measure_analysis(options, figures, web.port, token, full_track, site, user, make, seed)
    stopped()
    figures["load_end"] = load()
    purge("scoring", "analysis", "committee", "mail")
    connection.close()
    shutil.rmtree(WORK, ignore_errors=True)  # (--only throughput left it before)
    print(json.dumps(figures))


def measure_scoring(
    options: argparse.Namespace,
    figures: dict[str, Any],
    port: int,
    token: str,
    tracks: list[Track],
    site: Any,
    user: Any,
    make: Callable[[int], bytes],
    seed: Iterator[int],
) -> None:
    """1. and 2.: the scoring throughput, and the time from an upload to its ranked row."""
    throughput_1, throughput_2, paced_track, _ = tracks
    # 1. Scoring throughput, 1 then 2 processes, on two tracks of the same size.
    for processes, track in ((1, throughput_1), (2, throughput_2)):
        runs = [make(next(seed)) for _ in range(options.runs)]
        before = load()
        rate, cpu_ms = throughput(port, token, track, runs, processes)
        figures[f"runs_per_min_{processes}"] = round(rate, 1)
        figures[f"worker_cpu_ms_per_run_{processes}"] = round(cpu_ms, 1)
        figures[f"load_{processes}"] = f"{before} / {load()}"
        print(
            f"{processes} scoring process(es): {len(runs)} runs, {rate:.1f} runs/min, "
            f"{cpu_ms:.0f} ms of the worker's CPU per run (load average {before} before, "
            f"{load()} after)",
            flush=True,
        )
    figures["ratio_2_to_1"] = round(figures["runs_per_min_2"] / figures["runs_per_min_1"], 2)
    purge("analysis")
    print(f"load average {load()} on {os.cpu_count()} cores", flush=True)
    profiled = [make(next(seed)) for _ in range(options.profiled)]
    split = profile(throughput_2, site, user, profiled)
    purge("scoring", "analysis")
    figures["profile_per_run"] = {key: round(ms, 1) for key, ms in split.items()}
    labels = {"task_ms": "the whole task"} | {key: label for key, label, _, _ in PARTS}
    print(f"{len(profiled)} runs scored here, on a track of {track_size(throughput_2)}:")
    for key, ms in split.items():
        print(f"  {labels[key]}: {ms:.1f} ms per run", flush=True)
    if options.only == "throughput":
        return

    # 2. Upload to ranked at one upload per second, scoring (2) and analysis workers running.
    with running(*workers(("scoring", 2), ("analysis", 1))):
        paced_runs = [make(next(seed)) for _ in range(options.paced)]
        times = paced(port, token, paced_track, paced_runs, options.interval)
        figures["p50_upload_to_ranked_ms"] = round(statistics.median(times))
        figures["p95_upload_to_ranked_ms"] = round(percentile(times, 0.95))
        figures["load_paced"] = load()
        print(
            f"upload to ranked, {len(times)} runs, one per {options.interval:g} s: p50 "
            f"{figures['p50_upload_to_ranked_ms']} ms, p95 "
            f"{figures['p95_upload_to_ranked_ms']} ms",
            flush=True,
        )


def measure_analysis(
    options: argparse.Namespace,
    figures: dict[str, Any],
    port: int,
    token: str,
    full_track: Track,
    site: Any,
    user: Any,
    make: Callable[[int], bytes],
    seed: Iterator[int],
) -> None:
    # 3. A track of --track-size runs (its BASE and TOP included), scored by the workers and
    # analysed once in full here; then one more run, and one more again (the analysis worker
    # is warm for the second: it has loaded the track's gold attributes).
    with running(worker("scoring", 2)):
        for _ in range(options.track_size - 2):
            text = make(next(seed)).decode()
            services.do_accept_run(site, full_track, text, user=user, now=bakeoff_now())
        wait_until(lambda: all_scored(full_track))
    purge("analysis")
    RunAnalysis.objects.filter(submission__track=full_track).delete()
    TrackAnalysis.objects.filter(track=full_track).delete()
    started = time.monotonic()
    do_analyse_track(full_track.pk)
    figures["analysis_full_300_ms"] = round((time.monotonic() - started) * 1000)
    print(
        f"full analysis of {full_track.submissions.count()} runs here: "
        f"{figures['analysis_full_300_ms']} ms",
        flush=True,
    )
    print("the analysis after one more score, here, under cProfile:", flush=True)
    for line in profile_analysis(site, user, full_track, make(next(seed))):
        print(f"  {line}", flush=True)
    scoring_worker, analysis_worker = workers(("scoring", 1), ("analysis", 1))
    with running(scoring_worker, analysis_worker):
        for name in ("analysis_after_300_cold_ms", "analysis_after_300_ms"):
            cpu = session_cpu_s(analysis_worker.process.pid)
            pk = upload(port, token, full_track, make(next(seed)))
            score, analysis = analysed(full_track, pk)
            took = (analysis.computed_at - score.created_at).total_seconds() * 1000
            cpu_ms = (session_cpu_s(analysis_worker.process.pid) - cpu) * 1000
            figures[name] = round(took)
            figures[f"{name.removesuffix('_ms')}_worker_cpu_ms"] = round(cpu_ms)
            figures[f"load_{name}"] = load()
            print(
                f"from a new score to the analysis of the {len(analysis.scores)} runs "
                f"stored ({name}): {took:.0f} ms, {cpu_ms:.0f} ms of the analysis worker's "
                f"CPU (load average {load()})",
                flush=True,
            )


def bakeoff_now() -> Any:
    from bakeoff import clock

    return clock.now()


if __name__ == "__main__":
    scoring.keep_freed_memory()
    main()
