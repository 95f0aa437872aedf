"""Five minutes without the database on the production path as shipped (issue 11; by hand).

    .venv/bin/python benchmarks/database_outage.py [--outage 300] [--runs 20]

Starts here, all on 127.0.0.1: a database of its own on the PostgreSQL at 127.0.0.1:5432
(``bakeoff_outage``, dropped and created again), a redis-server of its own as the broker,
gunicorn with 2 sync workers behind nginx as shipped, and two scoring workers. The web tier and
the workers reach PostgreSQL through a TCP link the benchmark cuts and restores
(tests/production/tcp_cut.py): to them the database is gone, every connection dropped and every
new one refused, while the machine's PostgreSQL, shared with others, is never stopped.

``--runs`` sites upload a run of pku size each; as soon as a worker is scoring one, the link is
cut for ``--outage`` seconds. Meanwhile, every 10 s, another site tries to upload and a reader
asks for ``/healthz/`` and the bakeoff's page: each should get 503 with Retry-After (JSON on the
API), nothing stored. When the database is back, the refused uploads are sent again, as a
script that read Retry-After would, and the benchmark waits until every accepted run is scored.

It checks every claim against the database and prints the figures; the last line is one JSON
object: ``outage_s``; ``in_flight_at_cut`` (runs queued and being scored when the link was cut);
``answers_during_outage`` (status: count); ``http_500`` (answers 500, or 5xx other than 503,
during the whole benchmark); ``api_not_json``; ``accepted``; ``lost`` (answered 201 but not
scored in the end); ``duplicated`` (a checksum stored twice, or a run with two current scores);
``stored_during_outage``; ``orphan_files`` (run files no submission names); ``workers_alive``;
``all_scored_after_restore_s`` (from the link's return to the last accepted run's score).

Targets: ``http_500``, ``api_not_json``, ``lost``, ``duplicated``, ``stored_during_outage`` and
``orphan_files`` 0; both workers alive; every run scored within 90 s of the database's return
(the longest wait between a task's retries is 60 s; bakeoff/task_base.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.production.runs import (  # noqa: E402
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
from tests.production.tcp_cut import CuttableLink  # noqa: E402

ICWB2 = Path(os.environ.get("ICWB2_PATH", REPO.parent / "shared" / "data" / "icwb2"))
DATABASE = os.environ.get(
    "OUTAGE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bakeoff_outage"
)
WORK = Path(tempfile.mkdtemp(prefix="bakeoff-outage-"))
PREFIX = f"outage-{uuid.uuid4().hex[:6]}-"
BROKER = RedisServer(WORK / "redis", free_port())
LINK = CuttableLink(("127.0.0.1", int(DATABASE.split("@127.0.0.1:")[1].split("/")[0])))
THROUGH_LINK = DATABASE.replace("@127.0.0.1:5432/", f"@127.0.0.1:{LINK.port}/")

# This process (which builds the data and checks the claims) reaches PostgreSQL straight.
ENV = production_environment(
    DATABASE, BROKER.url, PREFIX, WORK, BAKEOFF_TRUSTED_PROXIES="127.0.0.1"
)
CUT_OFF = {**ENV, "DATABASE_URL": THROUGH_LINK}  # the web tier and the workers


def get(url: str) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            status, headers = answer.status, answer.headers
    except urllib.error.HTTPError as error:
        status, headers = error.code, error.headers
    except OSError as error:
        return {"status": 0, "error": repr(error), "api": False}
    return {
        "api": False,
        "status": status,
        "json": headers.get("Content-Type", "").startswith("application/json"),
        "retry_after": headers.get("Retry-After"),
    }


def setup(sites: int) -> tuple[str, list[tuple[str, bytes]]]:
    """The bakeoff, its pku closed track, ``sites`` sites with a token and a run each."""
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    from bakeoff import icwb2
    from tests.factories import make_bakeoff, make_site

    bakeoff = make_bakeoff(slug="outage", name="Database outage")
    spec = next(c for c in icwb2.CORPORA if c.prefix == "pku")
    corpus = icwb2.add_corpus(bakeoff, ICWB2, spec, conditions=("closed",), max_runs=5)
    assert corpus is not None
    track = corpus.tracks.get()
    gold = (ICWB2 / "gold" / "pku_test_gold.utf8").read_text(encoding="utf-8-sig")
    test = (ICWB2 / "testing" / "pku_test.utf8").read_text(encoding="utf-8-sig")
    make = run_maker(gold, test)
    uploads = []
    for n in range(sites):
        user = User.objects.create(username=f"site{n:03d}")
        make_site(bakeoff, user, [track], name=f"Site {n:03d}")
        uploads.append((Token.objects.create(user=user).key, make(n)))
    return f"/api/bakeoffs/outage/tracks/{track.slug}/submissions/", uploads


def send_all(port: int, path: str, uploads: list[tuple[str, bytes]]) -> list[dict[str, Any]]:
    """Four clients at once; a 503 is sent again after 2 s, at most 3 times."""
    answers: list[dict[str, Any]] = [{} for _ in uploads]
    todo = list(enumerate(uploads))
    lock = threading.Lock()

    def client() -> None:
        while True:
            with lock:
                if not todo:
                    return
                index, (token, data) = todo.pop(0)
            for _ in range(4):
                answer = upload(port, path, token, data)
                answers[index] = answer
                if answer["status"] != 503:
                    break
                time.sleep(2)

    threads = [threading.Thread(target=client) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    return answers


def wait_for(condition: Any, timeout: float, step: float = 0.2) -> bool:
    began = time.monotonic()
    while time.monotonic() - began < timeout:  # bounded
        if condition():
            return True
        time.sleep(step)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outage", type=float, default=300.0, help="seconds without the database")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="2 runs, an outage of 1.5 s probed every 0.5 s: the stack once, in seconds (the "
        "suite runs it)",
    )
    options = parser.parse_args()
    every = 10.0  # seconds between two probes of the outage (an upload, /healthz/, a page)
    if options.smoke:
        options.outage, options.runs, every = 1.5, 2, 0.5
    if not ICWB2.is_dir():
        sys.exit(f"icwb2-data not found at {ICWB2}")

    fresh_database(DATABASE, smoke=options.smoke)
    from django.db.models import Count, Max

    from bakeoff.models import Score, Submission, SubmissionStatus

    BROKER.start()
    probes = options.outage // every
    path, uploads = setup(options.runs + int(probes))
    first, during = uploads[: options.runs], uploads[options.runs :]
    processes: list[Any] = []
    workers: list[CeleryWorker] = []
    answers: list[dict[str, Any]] = []
    try:
        gunicorn = Gunicorn.start(CUT_OFF, WORK / "gunicorn.log", workers=2)
        processes.append(gunicorn)
        nginx = Nginx.start(WORK / "nginx", gunicorn.address)
        processes.append(nginx)
        print(
            f"{options.runs} runs of {len(first[0][1]):,} bytes; work directory {WORK}", flush=True
        )

        # The runs wait in the broker until the workers start, so that the cut finds one being
        # scored and the others queued, not all of them scored already.
        answers += send_all(nginx.port, path, first)
        workers += [
            CeleryWorker.start(f"outage-{n}", [PREFIX + "scoring"], CUT_OFF, WORK / f"w{n}.log")
            for n in (1, 2)
        ]
        for worker in workers:
            worker.wait_until_ready()
        # until a run is being scored (or none is left to score: a smoke run's few may all be
        # scored between two looks)
        wait_for(
            lambda: (
                Submission.objects.filter(status="scoring").exists()
                or not Submission.objects.filter(status="queued").exists()
            ),
            60,
            step=0.02,
        )
        LINK.cut()
        cut_at = time.time()
        in_flight = dict(
            Submission.objects.values_list("status").annotate(n=Count("pk")).order_by()
        )
        print(f"link cut; runs by status then: {in_flight}", flush=True)

        during_outage: list[dict[str, Any]] = []
        refused: list[tuple[str, bytes]] = []
        for token, data in during:
            time.sleep(max(0.0, cut_at + (len(during_outage) // 3 + 1) * every - time.time()))
            if time.time() > cut_at + options.outage - every / 2:
                break
            tried = upload(nginx.port, path, token, data, timeout=60)
            during_outage += [
                tried,
                get(f"{nginx.url}/healthz/"),
                get(f"{nginx.url}/bakeoffs/outage/"),
            ]
            refused.append((token, data))
        time.sleep(max(0.0, cut_at + options.outage - time.time()))
        LINK.restore()
        restored_at = time.time()
        print(f"link restored after {restored_at - cut_at:.0f} s", flush=True)
        answers += during_outage
        answers += send_all(nginx.port, path, refused)

        accepted = [a["body"]["id"] for a in answers if a.get("status") == 201]
        wait_for(
            lambda: (
                not Submission.objects.filter(pk__in=accepted)
                .exclude(status__in=(SubmissionStatus.SCORED, SubmissionStatus.FAILED))
                .exists()
            ),
            600,
        )
        alive = sum(1 for worker in workers if worker.process.poll() is None)
    finally:
        stop_all(*(process.stop for process in [*processes, *workers]))
        BROKER.stop()  # after the workers, whose shutdown gives back what they hold to it
        LINK.close()

    statuses = dict(Submission.objects.filter(pk__in=accepted).values_list("pk", "status"))
    lost = sum(1 for pk in accepted if statuses.get(pk) != SubmissionStatus.SCORED)
    checksums = {"sha256:" + hashlib.sha256(data).hexdigest() for _, data in uploads}
    stored = Submission.objects.filter(checksum__in=checksums).values("checksum")
    duplicated = stored.annotate(n=Count("pk")).filter(n__gt=1).count()
    duplicated += (
        Score.objects.filter(superseded_at__isnull=True, metric="word")
        .values("submission")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count()
    )
    named = set(Submission.objects.values_list("file", flat=True))
    on_disk = {
        str(p.relative_to(WORK / "media"))
        for p in (WORK / "media" / "runs").rglob("*")
        if p.is_file()
    }
    last = Submission.objects.filter(pk__in=accepted).aggregate(last=Max("status_changed_at"))
    outage_answers: dict[int, int] = {}
    for answer in during_outage:
        outage_answers[answer["status"]] = outage_answers.get(answer["status"], 0) + 1
    for answer in during_outage[:3]:
        print(
            f"  during the outage: {answer.get('status')} Retry-After {answer.get('retry_after')}"
        )
    result = {
        "outage_s": round(restored_at - cut_at),
        "in_flight_at_cut": {s: in_flight.get(s, 0) for s in ("queued", "scoring")},
        "answers_during_outage": outage_answers,
        "http_500": sum(
            1 for a in answers if 500 <= a.get("status", 0) < 600 and a["status"] != 503
        ),
        "api_not_json": sum(
            1 for a in answers if a.get("api", True) and a.get("status") and not a.get("json")
        ),
        "accepted": len(accepted),
        "lost": lost,
        "duplicated": duplicated,
        "stored_during_outage": Submission.objects.filter(
            received_at__gte=_instant(cut_at), received_at__lt=_instant(restored_at)
        ).count(),
        "orphan_files": len(on_disk - named),
        "workers_alive": alive,
        "all_scored_after_restore_s": round(last["last"].timestamp() - restored_at, 1)
        if last["last"] is not None and not lost
        else None,
    }
    print(json.dumps(result))


def _instant(seconds: float) -> Any:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(seconds, tz=UTC)


if __name__ == "__main__":
    main()
