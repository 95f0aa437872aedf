"""Archives of whole bakeoffs, timed (issue 26): export, import into another instance, compare.

    .venv/bin/python benchmarks/archive_roundtrip.py [--icwb2 /work/shared/data/icwb2]
    .venv/bin/python benchmarks/archive_roundtrip.py --smoke     # seconds; the suite runs it

Builds, in a temporary embedded platform (SQLite and files on disk), the standing SIGHAN 2005
bakeoff (``manage.py import_icwb2 --standing`` of the release) and the demo (``manage.py
setup_demo``); with ``--smoke``, the drill's bakeoff (tests/operations/drill.py: a publication, an
erratum, runs of every phase, a paper) and a standing SIGHAN 2005 of the tests' tiny release.
Each bakeoff's organisers' archive is written with ``export_bakeoff`` (timed in this process),
then imported with ``import_bakeoff`` into a new platform (a fresh process with its own database
and media directory, migrated first, or in a smoke run its tables made from the models as the
source's were; the time is the import command's process, Django's start included). Every public
export of every results version and track (CSV, JSON, LaTeX, SVG) and every stored file a row
names are compared byte for byte with the source.

The last line is one JSON object: per bakeoff its archive's size (zip bytes, and before
compression), files, rows, export_s and import_s; and exports_compared, exports_differing,
files_compared, files_differing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ICWB2 = Path("/work/shared/data/icwb2")


def setup_django(directory: Path, *, smoke: bool = False) -> None:
    """An embedded platform in ``directory`` (SQLite, files on disk, tasks in-process), as
    benchmarks/restore_drill.py makes one; in a smoke run its tables made from the models, without
    the migrations (benchmarks/smoke.py: the archive carries rows, not the migrations' history)."""
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "AWS_STORAGE_BUCKET_NAME"):
        os.environ.pop(name, None)
    os.environ["BAKEOFF_VAR_DIR"] = str(directory / "var")
    os.environ["MEDIA_ROOT"] = str(directory / "media")
    os.environ["BAKEOFF_CACHE_DIR"] = str(directory / "cache")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from benchmarks.smoke import migrate

    migrate(smoke=smoke)


def migrate_elsewhere(env: dict[str, str], *, smoke: bool) -> subprocess.CompletedProcess[str]:
    """The new platform's tables, made in a process of its own as this one's were: in a smoke run
    from the models, without the migrations (seconds of a loaded machine's time: the import
    writes rows, never the migrations' history)."""
    from tests.operations.drill import manage

    if not smoke:
        return manage(env, "migrate", "--verbosity", "0")
    return subprocess.run(
        [sys.executable, "-c", SMOKE_MIGRATE],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


SMOKE_MIGRATE = (
    "import django; django.setup(); from benchmarks.smoke import migrate; migrate(smoke=True)"
)


def build(directory: Path, *, smoke: bool, icwb2: Path) -> list[str]:
    from django.core.management import call_command

    from tests.operations.drill import DiscardedOutput, build_published_bakeoff

    start = time.perf_counter()
    if smoke:
        built = build_published_bakeoff(directory, sites=2)
        slugs = [built.bakeoff_slug, "sighan2005"]
    else:
        call_command("import_icwb2", str(icwb2), "--standing", stdout=DiscardedOutput())
        call_command("setup_demo", stdout=DiscardedOutput())
        slugs = ["sighan2005", "demo"]
    print(f"built {', '.join(slugs)} in {time.perf_counter() - start:.1f} s")
    return slugs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny bakeoffs, in seconds")
    parser.add_argument("--icwb2", type=Path, default=ICWB2, help="the SIGHAN 2005 release")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bakeoff-archive-") as name:
        directory = Path(name)
        setup_django(directory / "source", smoke=args.smoke)
        from django.db import connection

        from bakeoff import clock
        from bakeoff.models import Bakeoff
        from leaderboard import archive
        from tests.operations.drill import (
            compare,
            fingerprint,
            fresh_platform,
            manage,
            restored_fingerprint,
        )

        slugs = build(directory, smoke=args.smoke, icwb2=args.icwb2)
        before = fingerprint()
        figures: dict[str, Any] = {}
        paths: dict[str, Path] = {}
        for slug in slugs:
            bakeoff = Bakeoff.objects.get(slug=slug)
            start = time.perf_counter()
            files = archive.archive_files(bakeoff, now=clock.now())
            data = archive.archive_zip(files)
            export_s = time.perf_counter() - start
            paths[slug] = directory / f"{slug}.zip"
            paths[slug].write_bytes(data)
            manifest = json.loads(files[archive.MANIFEST])
            figures[slug] = {
                "zip_bytes": len(data),
                "unpacked_bytes": sum(len(d) for d in files.values()),
                "files": len(files),
                "rows": sum(n for k, n in manifest["counts"].items() if k != "accounts"),
                "export_s": round(export_s, 2),
            }
        connection.close()
        with fresh_platform(directory / "restored") as env:
            migrated = migrate_elsewhere(env, smoke=args.smoke)
            if migrated.returncode != 0:
                print(migrated.stderr, file=sys.stderr)
                return 1
            for slug in slugs:
                start = time.perf_counter()
                done = manage(env, "import_bakeoff", str(paths[slug]))
                figures[slug]["import_s"] = round(time.perf_counter() - start, 2)
                print(done.stdout.strip() or done.stderr.strip())
                if done.returncode != 0:
                    return 1
            after = restored_fingerprint(env, directory / "restored.json")
        differences = compare(before, after)
        figures |= {
            "exports_compared": differences.exports_compared,
            "exports_differing": len(differences.exports_differing),
            "files_compared": differences.files_compared,
            "files_differing": len(differences.files_differing),
        }
        for label, items in (
            ("exports differing", differences.exports_differing),
            ("files differing", differences.files_differing),
        ):
            print(f"{label}: {', '.join(items[:10]) or 'none'}")
        print(json.dumps(figures))
    return 0 if not (differences.exports_differing or differences.files_differing) else 1


if __name__ == "__main__":
    sys.exit(main())
