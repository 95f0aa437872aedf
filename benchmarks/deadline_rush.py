"""A rush at the deadline on the production path as shipped, with faults (issue 11; by hand).

    .venv/bin/python benchmarks/deadline_rush.py [--sites 100] [--clients 20] [--window 60]
        [--corpus pku|msr]

Starts here, all on 127.0.0.1: a database of its own on the PostgreSQL at 127.0.0.1:5432
(``bakeoff_rush_`` and a random suffix, dropped at the end; ``RUSH_DATABASE_URL`` names another,
which is dropped and created again and kept), a redis-server of its own as the broker (append-only
file, fsync always, as docker-compose runs it), gunicorn with 2 sync workers (as the Dockerfile)
behind nginx with ``deploy/nginx/bakeoff.conf.template`` (unprivileged, a prefix of its own), and
two scoring workers. It creates a bakeoff with ``--sites`` sites registered for the SIGHAN 2005 pku
closed track (``--corpus msr``: the MSR one, a test text of much the same size), each with
a token, and a run of that corpus's size for every upload (the gold with words
joined and split at random, a different mix each: no two uploads are the same file).

In the last ``--window`` seconds before the deadline, ``--clients`` threads upload through nginx:
every site once, some twice or three times, a few in the last two seconds, and some seconds after
the deadline. A client retries an upload that failed (5xx, 429 or no answer) up to 3 times, as a
script would. While they run the broker is stopped for 20 s (from 45 s before the deadline), and
one scoring worker is killed with SIGKILL (from 15 s before the deadline, as soon as both workers
are scoring a run, within 10 s; it is started again 10 s later, as docker-compose's restart
policy would).

It then checks every claim against the database and prints the figures; the last line is one JSON
object:

- ``accepted``: uploads answered 201; ``refused_late``: answered 403 as after the deadline;
- ``late_but_sent_in_time``: refused as late although the client had sent the whole upload before
  the deadline;
- ``lost``: answered 201 but not in the database, or not scored in the end;
- ``duplicated``: an upload stored more than once (a retry of one that had been stored), or a run
  with more than one current score;
- ``http_5xx``: answers 500-599 (retries included); ``p95_upload_ms``: 95th percentile of the time
  from the start of a request to its answer;
- ``all_scored_s``: seconds from the deadline to the last accepted run's score.

Targets: lost, duplicated, http_5xx and late_but_sent_in_time 0; p95_upload_ms < 1,000;
all_scored_s < 180.

Ports: free ones, or ``RUSH_NGINX_PORT``, ``RUSH_GUNICORN_PORT`` and ``RUSH_REDIS_PORT`` (where a
firewall or a second run on the machine needs them fixed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.production.runs import (  # noqa: E402
    drop_database,
    fresh_database,
    production_environment,
    run_maker,
    upload,
)
from tests.production.stack import (  # noqa: E402
    CeleryWorker,
    Gunicorn,
    Nginx,
    RedisServer,
    free_port,
    stop_all,
)

ICWB2 = Path(os.environ.get("ICWB2_PATH", REPO.parent / "shared" / "data" / "icwb2"))
RUN_ID = uuid.uuid4().hex[:6]
# A database named for this run unless one is given: two rushes, or a rush and the test suite,
# on one server never drop each other's.
OWN_DATABASE = "RUSH_DATABASE_URL" not in os.environ
DATABASE = os.environ.get(
    "RUSH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/bakeoff_rush_{RUN_ID}"
)
WORK = Path(tempfile.mkdtemp(prefix="bakeoff-rush-"))
PREFIX = f"rush-{RUN_ID}-"


def port_from_env(name: str) -> int | None:
    value = os.environ.get(name, "")
    if value and not value.isdigit():
        sys.exit(f"{name}={value!r} is not a port number")
    return int(value) if value else None


BROKER = RedisServer(WORK / "redis", port_from_env("RUSH_REDIS_PORT") or free_port())

ENV = production_environment(
    DATABASE, BROKER.url, PREFIX, WORK, BAKEOFF_TRUSTED_PROXIES="127.0.0.1"
)


@dataclass
class Job:
    """One intended upload: a site's run, sent at ``at`` (time.time())."""

    site: int
    token: str
    at: float
    data: bytes
    checksum: str
    attempts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def final(self) -> dict[str, Any]:
        return self.attempts[-1] if self.attempts else {}


def client(port: int, path: str, jobs: queue.Queue[Job]) -> None:
    while True:
        try:
            job = jobs.get_nowait()
        except queue.Empty:
            return
        time.sleep(max(0.0, job.at - time.time()))
        for _ in range(4):  # the upload and at most 3 retries
            attempt = upload(port, path, job.token, job.data)
            job.attempts.append(attempt)
            if attempt["status"] not in (0, 429) and attempt["status"] < 500:
                break
            time.sleep(1)


def schedule(
    sites: list[tuple[int, str]], window: float, make: Any, rng: random.Random, late: float = 5.0
) -> list[Job]:
    """Every site once in the window, 40% twice, 10% three times; 5% of uploads in the last two
    seconds, and 10 uploads from 0.5 to ``late`` s after the deadline. ``at`` is relative to the
    deadline until the deadline is set."""
    deadline = 0.0
    plan: list[tuple[int, str, float]] = []
    for number, token in sites:
        times = 1 + (rng.random() < 0.4) + (rng.random() < 0.1)
        plan += [(number, token, deadline - rng.uniform(2.0, window)) for _ in range(times)]
    for number, token in rng.sample(sites, max(1, len(plan) // 20)):
        plan.append((number, token, deadline - rng.uniform(0.2, 2.0)))
    for number, token in rng.sample(sites, min(10, len(sites))):
        plan.append((number, token, deadline + rng.uniform(0.5, late)))
    plan.sort(key=lambda item: item[2])
    jobs = []
    for seed, (number, token, at) in enumerate(plan):
        data = make(seed)
        jobs.append(Job(number, token, at, data, "sha256:" + hashlib.sha256(data).hexdigest()))
    return jobs


@dataclass(frozen=True)
class Faults:
    """When the faults come, in seconds before the deadline, and how long they last."""

    broker_stopped: float = 45.0
    broker_started: float = 25.0
    worker_killed: float = 15.0
    busy_wait: float = 10.0  # at most, for both workers to be scoring a run
    worker_restarted_after: float = 10.0


# The smoke's window of 2.5 s: the same faults, in a second and a half.
SMOKE_FAULTS = Faults(
    broker_stopped=2.5,
    broker_started=2.0,
    worker_killed=1.5,
    busy_wait=0.5,
    worker_restarted_after=0.5,
)


def faults(workers: list[CeleryWorker], deadline: float, log: list[str], when: Faults) -> None:
    def at(moment: float) -> None:
        time.sleep(max(0.0, moment - time.time()))

    at(deadline - when.broker_stopped)
    BROKER.stop()
    log.append(f"broker stopped at D{time.time() - deadline:+.1f} s")
    at(deadline - when.broker_started)
    BROKER.start()
    log.append(f"broker started at D{time.time() - deadline:+.1f} s")
    at(deadline - when.worker_killed)
    from django.db import connection

    from bakeoff.models import Submission

    busy = 0
    waited = time.time() + when.busy_wait
    while time.time() < waited:  # kill it while both workers score a run, if they do
        busy = Submission.objects.filter(status="scoring").count()
        if busy >= 2:
            break
        time.sleep(0.05)
    connection.close()
    workers[0].kill()
    log.append(
        f"worker {workers[0].name} killed (SIGKILL) at D{time.time() - deadline:+.1f} s, "
        f"{busy} {'run' if busy == 1 else 'runs'} being scored then"
    )
    at(time.time() + when.worker_restarted_after)
    restarted = CeleryWorker.start(
        workers[0].name + "b", workers[0].queues, ENV, WORK / "worker-1b.log"
    )
    workers.append(restarted)
    restarted.wait_until_ready()
    log.append(f"worker {restarted.name} ready at D{time.time() - deadline:+.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=100)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--window", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--corpus", choices=("pku", "msr"), default="pku")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="2 sites, 2 clients, a window of 2.5 s and the same faults within it: the stack "
        "once, in seconds (the suite runs it; not the targets')",
    )
    options = parser.parse_args()
    # Seconds from the clock's start to the window's, and the last upload's after the deadline.
    lead, late = 5.0, 5.0
    if options.smoke:
        options.sites, options.clients, options.window = 2, 2, 2.5
        lead, late = 0.5, 1.0
    if not ICWB2.is_dir():
        sys.exit(f"icwb2-data not found at {ICWB2}")

    fresh_database(DATABASE, smoke=options.smoke)
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from bakeoff import icwb2
    from bakeoff.models import Bakeoff, Score, Submission, SubmissionStatus
    from tests.factories import make_bakeoff, make_site

    BROKER.start()
    processes: list[Any] = []
    workers: list[CeleryWorker] = []
    try:
        scoring_queues = [PREFIX + "scoring"]
        for n in (1, 2):
            worker = CeleryWorker.start(
                f"rush-scoring-{n}", scoring_queues, ENV, WORK / f"worker-{n}.log"
            )
            workers.append(worker)
        gunicorn = Gunicorn.start(
            ENV, WORK / "gunicorn.log", workers=2, port=port_from_env("RUSH_GUNICORN_PORT")
        )
        processes.append(gunicorn)
        nginx = Nginx.start(WORK / "nginx", gunicorn.address, port_from_env("RUSH_NGINX_PORT"))
        processes.append(nginx)
        for worker in workers:
            worker.wait_until_ready()

        bakeoff = make_bakeoff(slug="rush", name="Deadline rush")
        spec = next(c for c in icwb2.CORPORA if c.prefix == options.corpus)
        corpus = icwb2.add_corpus(
            bakeoff,
            ICWB2,
            spec,
            conditions=("closed",),
            max_runs=5,
            accept_differences=True,  # msr's 16 lines, as import_icwb2 and the SIGHAN scorer do
        )
        assert corpus is not None
        track = corpus.tracks.get()
        sites = []
        for n in range(options.sites):
            user = User.objects.create(username=f"site{n:03d}")
            make_site(bakeoff, user, [track], name=f"Site {n:03d}")
            sites.append((n, Token.objects.create(user=user).key))
        gold = (ICWB2 / "gold" / f"{spec.prefix}_test_gold.utf8").read_text(encoding="utf-8-sig")
        test = (ICWB2 / "testing" / f"{spec.prefix}_test.utf8").read_text(encoding="utf-8-sig")
        rng = random.Random(options.seed)
        # The runs are made first (a fraction of a second each), then the clock starts.
        jobs = schedule(sites, options.window, run_maker(gold, test), rng, late)
        deadline = time.time() + options.window + lead
        for job in jobs:
            job.at += deadline
        Bakeoff.objects.filter(pk=bakeoff.pk).update(
            submission_deadline=datetime.fromtimestamp(deadline, tz=UTC)
        )
        print(
            f"{len(jobs)} uploads of {len(jobs[0].data):,} bytes from {options.sites} sites, "
            f"{options.clients} clients; deadline in {deadline - time.time():.0f} s; "
            f"work directory {WORK}",
            flush=True,
        )

        pending: queue.Queue[Job] = queue.Queue()
        for job in jobs:
            pending.put(job)
        path = f"/api/bakeoffs/rush/tracks/{track.slug}/submissions/"
        clients = [
            threading.Thread(target=client, args=(nginx.port, path, pending))
            for _ in range(options.clients)
        ]
        fault_log: list[str] = []
        when = SMOKE_FAULTS if options.smoke else Faults()
        injector = threading.Thread(target=faults, args=(workers, deadline, fault_log, when))
        injector.start()
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join(timeout=options.window + 600)
        injector.join(timeout=120)
        for line in fault_log:
            print(line)

        accepted_ids = [job.final["body"]["id"] for job in jobs if job.final.get("status") == 201]
        began = time.time()
        while time.time() - began < 600:  # bounded: ten minutes at most
            left = (
                Submission.objects.filter(pk__in=accepted_ids)
                .exclude(status__in=(SubmissionStatus.SCORED, SubmissionStatus.FAILED))
                .count()
            )
            if not left:
                break
            time.sleep(0.1)
        report(jobs, deadline, accepted_ids, Submission, Score, track)
    finally:
        stop_all(*(process.stop for process in [*processes, *workers]))
        BROKER.stop()  # after the workers, whose shutdown gives back what they hold to it
        if OWN_DATABASE:
            drop_database(DATABASE)


def report(
    jobs: list[Job],
    deadline: float,
    accepted_ids: list[int],
    Submission: Any,
    Score: Any,
    track: Any,
) -> None:
    from django.db.models import Count, Max

    attempts = [a for job in jobs for a in job.attempts]
    statuses: dict[int, int] = {}
    for attempt in attempts:
        statuses[attempt["status"]] = statuses.get(attempt["status"], 0) + 1
    accepted = len(accepted_ids)
    late_refusals = [
        job
        for job in jobs
        if job.final.get("status") == 403 and "deadline" in str(job.final.get("body", "")).lower()
    ]
    late_but_sent_in_time = [job for job in late_refusals if job.final["sent"] < deadline]
    stored = {
        row["checksum"]: row["n"]
        for row in Submission.objects.filter(track=track, kind="run")
        .values("checksum")
        .annotate(n=Count("pk"))
    }
    duplicated = sum(max(0, stored.get(job.checksum, 0) - 1) for job in jobs)
    duplicated += (
        Score.objects.filter(submission__track=track, superseded_at__isnull=True, metric="word")
        .values("submission")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count()
    )
    found = dict(Submission.objects.filter(pk__in=accepted_ids).values_list("pk", "status"))
    lost = sum(1 for pk in accepted_ids if found.get(pk) != "scored")
    stored_without_201 = sum(
        1 for job in jobs if job.checksum in stored and job.final.get("status") != 201
    )
    http_5xx = sum(1 for a in attempts if 500 <= a["status"] < 600)
    not_json = sum(1 for a in attempts if a["status"] and not a.get("json"))
    durations = sorted((a["answered"] - a["began"]) * 1000 for a in attempts if a["status"])
    p95 = durations[int(0.95 * (len(durations) - 1))] if durations else None
    last = Submission.objects.filter(pk__in=accepted_ids, status="scored").aggregate(
        last=Max("status_changed_at")
    )["last"]
    all_scored = round(last.timestamp() - deadline, 1) if last is not None and not lost else None
    sent_in_time = [job for job in jobs if job.attempts and job.attempts[0]["sent"] < deadline]
    print(f"answers by status: {dict(sorted(statuses.items()))}; not JSON: {not_json}")
    unexpected = {
        str(a.get("body") or a.get("error"))[:300]
        for a in attempts
        if a["status"] not in (201, 403)
    }
    for answer in sorted(unexpected)[:5]:  # why, for a person to act on
        print(f"  unexpected answer: {answer}")
    print(
        f"uploads planned {len(jobs)}, sent before the deadline {len(sent_in_time)}, "
        f"accepted {accepted}, refused as late {len(late_refusals)}, "
        f"stored although the client saw no 201: {stored_without_201}"
    )
    if durations:
        print(
            f"upload ms: median {statistics.median(durations):.0f}, p95 {p95:.0f}, "
            f"max {durations[-1]:.0f}"
        )
    print(
        json.dumps(
            {
                "accepted": accepted,
                "refused_late": len(late_refusals),
                "late_but_sent_in_time": len(late_but_sent_in_time),
                "lost": lost,
                "duplicated": duplicated,
                "http_5xx": http_5xx,
                "p95_upload_ms": round(p95) if p95 is not None else None,
                "all_scored_s": all_scored,
                # the machine's load while it ran: the upload times are worth what it was
                "load_1m_at_end": round(os.getloadavg()[0], 2),
                "cpus": os.cpu_count(),
            }
        )
    )


if __name__ == "__main__":
    main()
