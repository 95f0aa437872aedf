"""Peak memory of a web worker receiving large uploads (issue 11; run by hand, not a test).

    .venv/bin/python benchmarks/upload_memory.py [--megabytes 64 50]

Starts gunicorn (one sync worker, as the Dockerfile runs it but with one worker so that every
request lands in the process measured) in embedded mode on a database of its own, with the pku
test set of SIGHAN 2005 as the track's test text (the small demo text where ../shared is absent).
It uploads files of each size given (the gold repeated: what a participant sends when they pick
the wrong file), then one real-sized valid run (the pku gold, which embedded mode also scores in
the web process, having no broker), and reads the worker's peak resident memory (VmHWM in /proc)
after each. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ICWB2 = Path(os.environ.get("ICWB2_PATH", REPO.parent / "shared" / "data" / "icwb2"))
WORK = Path(tempfile.mkdtemp(prefix="bakeoff-upload-memory-"))
os.environ.update(
    BAKEOFF_VAR_DIR=str(WORK / "var"),
    MEDIA_ROOT=str(WORK / "media"),
    DJANGO_SETTINGS_MODULE="config.settings",
    DEBUG="0",
    ALLOWED_HOSTS="127.0.0.1",
)
for name in ("DATABASE_URL", "CELERY_BROKER_URL", "AWS_STORAGE_BUCKET_NAME"):
    os.environ.pop(name, None)
sys.path.insert(0, str(REPO))

import django  # noqa: E402

django.setup()

from rest_framework.authtoken.models import Token  # noqa: E402

from benchmarks.smoke import migrate  # noqa: E402
from tests.factories import GOLD, TEST, make_bakeoff, make_corpus, make_site, make_user  # noqa: E402
from tests.production.stack import Gunicorn  # noqa: E402


def peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for {pid}")


def post(url: str, token: str, data: bytes) -> tuple[int, dict[str, object]]:
    boundary = uuid.uuid4().hex
    body = b"".join(
        [
            f"--{boundary}\r\n".encode(),
            b'Content-Disposition: form-data; name="file"; filename="run.txt"\r\n',
            b"Content-Type: text/plain\r\n\r\n",
            data,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    request = urllib.request.Request(
        url,
        data=body,
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=300) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--megabytes", type=int, nargs="+", default=[64, 50])
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="one upload of 1 MiB, on the small demo text: seconds (the suite runs it)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.megabytes = [1]
    migrate(smoke=args.smoke)
    gold_path, test_path = ICWB2 / "gold/pku_test_gold.utf8", ICWB2 / "testing/pku_test.utf8"
    real = gold_path.exists() and test_path.exists() and not args.smoke
    gold = gold_path.read_text("utf-8") if real else GOLD
    test = test_path.read_text("utf-8") if real else TEST
    organiser = make_user("organiser")
    bakeoff = make_bakeoff(slug="memory", organiser=organiser)
    corpus = make_corpus(bakeoff, abbreviation="PKU", gold=gold, test=test, words=None)
    the_track = corpus.tracks.get(condition="closed")
    the_track.max_runs = 10
    the_track.save(update_fields=["max_runs"])
    member = make_user("member")
    make_site(bakeoff, member, [the_track])
    token = Token.objects.create(user=member).key
    server = Gunicorn.start({}, WORK / "gunicorn.log", workers=1, options=("--timeout", "300"))
    try:
        url = f"{server.url}/api/bakeoffs/memory/tracks/{the_track.slug}/submissions/"
        worker = int(
            subprocess.check_output(["pgrep", "-P", str(server.process.pid)], text=True).split()[0]
        )
        figures: dict[str, object] = {"test_text_bytes": len(test.encode("utf-8"))}
        figures["idle_peak_mib"] = round(peak_mib(worker), 1)
        unit = gold.encode("utf-8")
        for megabytes in args.megabytes:
            size = megabytes << 20
            data = (unit * (size // len(unit) + 1))[:size]
            started = time.monotonic()
            status, body = post(url, token, data)
            figures[f"upload_{megabytes}mib_status"] = status
            figures[f"upload_{megabytes}mib_ms"] = round((time.monotonic() - started) * 1000)
            figures[f"upload_{megabytes}mib_peak_mib"] = round(peak_mib(worker), 1)
            print(f"{megabytes} MiB: {status} {str(body.get('detail'))[:100]}")
        # Last: in embedded mode the run is also scored in this process (no broker).
        status, _ = post(url, token, gold.encode("utf-8"))
        figures["valid_run_status"] = status
        figures["valid_run_scored_here_peak_mib"] = round(peak_mib(worker), 1)
        print(json.dumps(figures))
    finally:
        server.stop(timeout=60)
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
