"""Runs and uploads for the benchmarks that drive the production path from outside
(benchmarks/deadline_rush.py, benchmarks/database_outage.py): a database of their own, runs of
real size that are all different files, and an upload through the REST API as a script sends it.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any


def production_environment(
    database: str, broker: str, prefix: str, work: Path, **more: str
) -> dict[str, str]:
    """The environment of a benchmark's platform (its web tier and workers) with production
    settings over plain HTTP on 127.0.0.1: ``database``, ``broker`` with queues named with
    ``prefix``, files under ``work``, and ``more``. It becomes this process's environment too
    (the process builds the data and checks the claims); files stay on the local disk."""
    environment = {
        "DATABASE_URL": database,
        "CELERY_BROKER_URL": broker,
        "BAKEOFF_QUEUE_PREFIX": prefix,
        "MEDIA_ROOT": str(work / "media"),
        "BAKEOFF_VAR_DIR": str(work / "var"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": uuid.uuid4().hex * 2,  # production settings refuse to start without one
        "SECURE_SSL_REDIRECT": "0",  # docs/deployment.md
        "ALLOWED_HOSTS": "127.0.0.1",
        **more,
    }
    os.environ.update(environment)
    os.environ.pop("AWS_STORAGE_BUCKET_NAME", None)
    return environment


def recreate_database(url: str) -> None:
    """Drops and creates the database named at the end of ``url`` (on its server's
    ``postgres`` database): a benchmark starts from nothing."""
    import psycopg2  # type: ignore[import-untyped]

    server_url, name = url.rsplit("/", 1)
    server = psycopg2.connect(server_url + "/postgres")
    server.autocommit = True
    with server.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    server.close()


def drop_database(url: str) -> None:
    """Drops the database named at the end of ``url``, closing this process's connections to it
    first (a benchmark's own database, once its figures are printed)."""
    import psycopg2
    from django.db import connections

    connections.close_all()
    server_url, name = url.rsplit("/", 1)
    server = psycopg2.connect(server_url + "/postgres")
    server.autocommit = True
    with server.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    server.close()


def fresh_database(url: str, *, smoke: bool = False) -> None:
    """A database of the benchmark's own, from nothing: dropped, created, Django set up on it
    (``DATABASE_URL`` names it) and migrated (in a smoke run, its tables made from the models at
    once: benchmarks/smoke.py)."""
    recreate_database(url)
    import django

    django.setup()
    from benchmarks.smoke import migrate

    migrate(smoke=smoke)


def run_maker(gold: str, test: str) -> Callable[[int], bytes]:
    """Runs of the test text, segmented as the gold is with words joined and split at random (a
    different mix for every seed). A line where the gold's characters differ from the test
    text's (16 lines of msr) is cut into single characters, as a run keeps the test text's."""
    import scoring

    lines = []
    for gold_line, test_line in zip(
        scoring.split_lines(gold), scoring.split_lines(test), strict=True
    ):
        words, text = scoring.words_of(gold_line), "".join(scoring.words_of(test_line))
        lines.append(words if "".join(words) == text else list(text))

    def make(seed: int) -> bytes:
        rng = random.Random(seed)
        join, split = rng.uniform(0.01, 0.08), rng.uniform(0.01, 0.08)
        out = []
        for words in lines:
            made: list[str] = []
            for word in words:
                if made and rng.random() < join:
                    made[-1] += word
                elif len(word) > 1 and rng.random() < split:
                    cut = rng.randrange(1, len(word))
                    made += [word[:cut], word[cut:]]
                else:
                    made.append(word)
            out.append(" ".join(made))
        return ("\n".join(out) + "\n").encode()

    return make


def upload(
    port: int, path: str, token: str, data: bytes, timeout: float = 120, description: str = ""
) -> dict[str, Any]:
    """POSTs a run as the multipart field ``file`` (with a ``description``, which an open track
    requires, if given); what happened, with times (time.time()): ``began``, ``sent`` (the whole
    body written), ``answered``; ``status`` (0: no answer), ``json`` (the answer was JSON),
    ``body``, ``retry_after``, or ``error``."""
    boundary = uuid.uuid4().hex
    described = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n'
        f"{description}\r\n"
        if description
        else ""
    )
    body = (
        (
            described + f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            'filename="run.utf8"\r\nContent-Type: text/plain\r\n\r\n'
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    attempt: dict[str, Any] = {"began": time.time()}
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request(
            "POST",
            path,
            body=body,
            headers={
                "Authorization": f"Token {token}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            },
        )
        attempt["sent"] = time.time()
        answer = conn.getresponse()
        raw = answer.read()
        attempt["status"] = answer.status
        attempt["json"] = answer.getheader("Content-Type", "").startswith("application/json")
        attempt["retry_after"] = answer.getheader("Retry-After")
        try:
            attempt["body"] = json.loads(raw)
        except ValueError:
            attempt["body"] = {"raw": raw[:200].decode(errors="replace")}
        conn.close()
    except OSError as error:
        attempt["status"] = 0
        attempt["error"] = repr(error)
        attempt.setdefault("sent", time.time())
    attempt["answered"] = time.time()
    return attempt
