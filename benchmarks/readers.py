"""Publication day (issue 25): readers of a published 300-run track on the production path.

    .venv/bin/python benchmarks/readers.py               # about 2 minutes of load, 3 to 4 in all
    .venv/bin/python benchmarks/readers.py --smoke       # a 30-run track, 1 s per load: seconds
    .venv/bin/python benchmarks/readers.py --code /work/main --no-proxy-cache   # "before"
    .venv/bin/python benchmarks/readers.py --targets participant_page   # one target only

Starts the production path as shipped on this machine: nginx from ``deploy/nginx/`` (the template
of ``--code``) in front of gunicorn as the Dockerfile runs it (``config.wsgi``, 2 sync workers),
a PostgreSQL database of its own (``BENCH_READERS_DATABASE_URL``, dropped and created again), and
a Redis of its own as the cache (and broker: nothing consumes it). It builds one bakeoff with a
published 300-run track (synthetic scores, as ``tests.factories.make_scored_runs`` stores them),
then loads it from 127.0.0.1 at 10 and 50 concurrent readers, 15 s each, with wrk (Debian's
``wrk``) or, without it, a Python load generator of threads on keep-alive connections:

- ``anon_page``: the track page, read anonymously (what nginx may keep: docs/deployment.md);
- ``json``: its ``results.json``, anonymously;
- ``participant_page``: the same page for a signed-in member of a site (a session cookie:
  nginx passes it to the application, which renders the reader's header around the table it
  keeps for their site);
- ``static``: the anonymous page's bytes written to a file and served by the same nginx.

``--code DIR`` serves another checkout (``/work/main``: the platform before issue 25) with this
one's data builder; ``--no-proxy-cache`` removes the template's ``proxy_cache`` lines;
``BAKEOFF_PUBLISHED_CACHE=0`` in the environment turns the application's cache off;
``--targets`` loads only the targets named (``anon_to_static_c50`` needs both of its own).
The last line is one JSON object: per target and concurrency (``c10``, ``c50``) ``rps``,
``p50_ms``, ``p99_ms``, ``non_2xx`` and ``app_cpu_ms`` (the CPU time gunicorn's workers used,
per request answered: what a request costs the application whatever else loads the machine);
``anon_to_static_c50`` (the anonymous page's req/s over the static file's at 50 readers);
``load`` (the machine's load average before the first run); and ``tool`` (wrk or python).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path
from string import Template
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.production.runs import production_environment, recreate_database  # noqa: E402
from tests.production.stack import (  # noqa: E402
    MAIN_CONF,
    NGINX,
    RedisServer,
    answers_http,
    free_port,
    listens,
    start_process,
    stop,
    wait_until_ready,
)

DATABASE = os.environ.get(
    "BENCH_READERS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bakeoff_readers"
)
TARGETS = ("anon_page", "json", "participant_page", "static")


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def workers_cpu_seconds(master: int) -> float:
    """The CPU time (user and system) gunicorn's workers have used so far: a request's own cost,
    whatever else the machine runs (the wall-clock figures depend on that; these do not)."""
    ticks = os.sysconf("SC_CLK_TCK")
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return 0.0
    used = 0
    for child in children:
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return used / ticks


# -- the platform --------------------------------------------------------------------------------


def start_gunicorn(
    code: Path, env: dict[str, str], log: Path
) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn as the Dockerfile runs it, from ``code`` (its own modules, not this checkout's)."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    settings = code / "config" / "gunicorn.py"
    # A checkout from before gunicorn's settings file gets the settings it had on the command line.
    command += (
        ["-c", str(settings)] if settings.exists() else ["--workers", "2", "--access-logfile", "-"]
    )
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            cwd=code,
            env={**os.environ, **env, "PYTHONPATH": str(code)},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    wait_until_ready(process, log, lambda: answers_http(f"http://127.0.0.1:{port}/healthz/"), 60)
    return process, port


def start_nginx(
    code: Path, prefix: Path, upstream: str, static: Path, proxy_cache: bool
) -> tuple[subprocess.Popen[bytes], int, int]:
    """nginx from ``code``'s template, and a server of static files beside it (same nginx)."""
    port, static_port = free_port(), free_port()
    prefix.mkdir(parents=True, exist_ok=True)
    site = (code / "deploy" / "nginx" / "bakeoff.conf.template").read_text()
    if not proxy_cache:
        site = "\n".join(line for line in site.splitlines() if "proxy_cache" not in line)
    site = Template(site).safe_substitute(
        BAKEOFF_LISTEN=f"127.0.0.1:{port}", BAKEOFF_UPSTREAM=upstream
    )
    site += f"\nserver {{\n    listen 127.0.0.1:{static_port};\n    root {static};\n}}\n"
    (prefix / "bakeoff.conf").write_text(site)
    main = Template(MAIN_CONF).substitute(prefix=prefix)
    main = main.replace("worker_processes 1;", "worker_processes auto;")
    if os.geteuid() == 0:
        main = "user root;\n" + main  # workers that may read the prefix's folders
    (prefix / "nginx.conf").write_text(main)
    log = prefix / "stderr.log"
    command = [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"]
    process = start_process(command, log)
    wait_until_ready(process, log, lambda: listens(port) and listens(static_port), 20, step=0.1)
    return process, port, static_port


def build(runs: int, *, smoke: bool = False) -> tuple[str, str]:
    """A published bakeoff with one track of ``runs`` runs; the track's path, and the session
    key of a member of one of its sites. ``smoke``: the tables made from the models at once."""
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore

    from benchmarks.smoke import migrate

    migrate(smoke=smoke)
    from bakeoff.models import Site
    from tests.factories import (
        make_bakeoff,
        make_corpus,
        make_scored_runs,
        make_user,
        publish,
        track,
    )

    bakeoff = make_bakeoff(slug="readers", organiser=make_user("organiser"))
    the_track = track(make_corpus(bakeoff), "open")
    make_scored_runs(the_track, runs, seed=runs)
    publish(bakeoff)
    member = make_user("member")
    site = Site.objects.filter(bakeoff=bakeoff).order_by("number").first()
    assert site is not None
    site.members.add(member)
    session = SessionStore()
    session["_auth_user_id"] = str(member.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = member.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return f"/bakeoffs/readers/tracks/{the_track.slug}/", session.session_key


# -- the load ------------------------------------------------------------------------------------

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def with_wrk(url: str, readers: int, seconds: float, headers: dict[str, str]) -> dict[str, Any]:
    wrk = shutil.which("wrk")
    assert wrk is not None
    command = [wrk, "-t", "2", "-c", str(readers), "-d", f"{max(1, round(seconds))}s", "--latency"]
    # a slow answer is measured, not counted as a failure (wrk's own timeout is 2 s)
    command += ["--timeout", "30s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout

    def latency(share: str) -> float:
        found = re.search(rf"^\s*{share}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        assert found, out
        return round(float(found[1]) * UNITS[found[2]], 2)

    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    assert rate, out
    done = re.search(r"(\d+) requests in", out)
    assert done, out
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    failed = sum(int(n) for n in errors.groups()) if errors else 0
    return {
        "rps": round(float(rate[1]), 1),
        "p50_ms": latency("50"),
        "p99_ms": latency("99"),
        "non_2xx": (int(non_2xx[1]) if non_2xx else 0) + failed,
        "requests": int(done[1]),
    }


def with_python(url: str, readers: int, seconds: float, headers: dict[str, str]) -> dict[str, Any]:
    """``readers`` threads, each a keep-alive connection asking again as soon as answered."""
    host, port_path = url.removeprefix("http://").split(":", 1)
    port, path = port_path.split("/", 1)
    times: list[float] = []
    bad = [0]
    lock = threading.Lock()
    start = time.perf_counter()
    end = start + seconds

    def reader() -> None:
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        mine, failed = [], 0
        while time.perf_counter() < end:
            began = time.perf_counter()
            try:
                connection.request("GET", "/" + path, headers=headers)
                answer = connection.getresponse()
                answer.read()
                failed += not 200 <= answer.status < 300
            except OSError:
                failed += 1
                connection.close()
                connection = http.client.HTTPConnection(host, int(port), timeout=30)
            mine.append((time.perf_counter() - began) * 1000)
        with lock:
            times.extend(mine)
            bad[0] += failed

    threads = [threading.Thread(target=reader) for _ in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    cuts = statistics.quantiles(times, n=100) if len(times) > 1 else [times[0]] * 99
    return {
        "rps": round(len(times) / elapsed, 1),
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(cuts[98], 2),
        "non_2xx": bad[0],
        "requests": len(times),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a 30-run track, 1 s per load")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--code", type=Path, default=REPO, help="the checkout to serve")
    parser.add_argument("--no-proxy-cache", action="store_true")
    parser.add_argument("--python-load", action="store_true", help="even when wrk is installed")
    parser.add_argument(
        "--targets",
        default=",".join(TARGETS),
        help=f"which of {', '.join(TARGETS)} to load (comma-separated; all by default)",
    )
    args = parser.parse_args()
    seconds, runs = (1.0, 30) if args.smoke else (args.seconds, args.runs)
    use_wrk = shutil.which("wrk") is not None and not args.python_load
    load = with_wrk if use_wrk else with_python
    work = Path(tempfile.mkdtemp(prefix="bakeoff-readers-"))
    redis = RedisServer(work / "redis", free_port()).start()
    started: list[subprocess.Popen[bytes]] = []
    try:
        cache_url = redis.url.replace("/0", "/1")
        env = production_environment(
            DATABASE, redis.url, f"readers-{uuid.uuid4().hex[:6]}-", work, CACHE_URL=cache_url
        )
        recreate_database(DATABASE)
        path, session = build(runs, smoke=args.smoke)
        gunicorn, app_port = start_gunicorn(args.code.resolve(), env, work / "gunicorn.log")
        started.append(gunicorn)
        static = work / "static"
        static.mkdir()
        nginx, port, static_port = start_nginx(
            args.code.resolve(),
            work / "nginx",
            f"127.0.0.1:{app_port}",
            static,
            not args.no_proxy_cache,
        )
        started.append(nginx)
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(base + path, timeout=60) as answer:
            (static / "page.html").write_bytes(answer.read())
        member = {"Cookie": f"sessionid={session}"}
        targets: dict[str, tuple[str, dict[str, str]]] = {
            "anon_page": (base + path, {}),
            "json": (base + path + "results.json", {}),
            "participant_page": (base + path, member),
            "static": (f"http://127.0.0.1:{static_port}/page.html", {}),
        }
        chosen = args.targets.split(",")
        unknown = set(chosen) - set(TARGETS)
        if unknown:
            parser.error(f"unknown targets: {', '.join(sorted(unknown))}")
        targets = {name: target for name, target in targets.items() if name in chosen}
        before = load_average()
        print(
            f"{runs}-run track, page {(static / 'page.html').stat().st_size} bytes; "
            f"load generator: {'wrk' if use_wrk else 'python'}; load average {before}"
        )
        figures: dict[str, Any] = {}
        for name, (url, headers) in targets.items():
            request = urllib.request.Request(url, headers=headers)
            with urllib.request.urlopen(request, timeout=60) as answer:  # warm: rendered once
                assert answer.status == 200, (url, answer.status)
            figures[name] = {}
            for readers in (10, 50):
                used = workers_cpu_seconds(gunicorn.pid)
                measured = load(url, readers, seconds, headers)
                used = workers_cpu_seconds(gunicorn.pid) - used
                answered = measured.pop("requests")
                # the application's CPU per request (0 where the proxy answered them all)
                measured["app_cpu_ms"] = round(1000 * used / answered, 2) if answered else None
                figures[name][f"c{readers}"] = measured
                print(
                    f"{name:17s} c{readers:<3d} {measured['rps']:9.1f} req/s  "
                    f"p50 {measured['p50_ms']:8.2f} ms  p99 {measured['p99_ms']:8.2f} ms  "
                    f"non-2xx {measured['non_2xx']}  app CPU {measured['app_cpu_ms']} ms/request"
                )
        if "anon_page" in figures and "static" in figures:
            figures["anon_to_static_c50"] = round(
                figures["anon_page"]["c50"]["rps"] / figures["static"]["c50"]["rps"], 4
            )
        figures["load"] = before
        figures["tool"] = "wrk" if use_wrk else "python"
        print(f"load average after: {load_average()}")
        print(json.dumps(figures))
    finally:
        for process in reversed(started):
            stop(process)
        redis.stop()
        if not os.environ.get("BENCH_KEEP"):
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
