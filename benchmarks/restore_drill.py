"""The restore drill of docs/operations.md, timed (issue 24): back a platform up while uploads
arrive, restore it into a new database and storage, and compare.

    .venv/bin/python benchmarks/restore_drill.py [--sites 40] [--uploads 20]
    .venv/bin/python benchmarks/restore_drill.py --smoke     # seconds; the suite runs it

Builds, in a temporary embedded platform (SQLite and files on disk), a published bakeoff with an
erratum (results versions 1 and 2), ``--sites`` sites with two scored test runs each, a
development run, a post-bakeoff run and a paper, and the standing SIGHAN 2005 board
(``tests/operations/drill.py``). ``--uploads`` more sites then upload post-bakeoff runs
from another thread, started the moment the backup's database snapshot is taken, so that they
arrive while the files are copied (the drill waits for the first to be stored before the copy
starts). ``manage.py backup`` is timed in this process; ``manage.py restore`` in a fresh process
with its own database file and media directory (the time includes its ``migrate``, which a smoke
run skips where it finds the suite's migrated schema). The restored platform is compared with the
source as it was at the snapshot: every row of every table (plain SQL), every stored file (sha256
through the storage), and every public export of every results version and live track (CSV, JSON,
LaTeX, SVG, byte for byte).

The last line is one JSON object: exports_compared, exports_differing, files_compared,
files_differing, rows_lost (rows of the snapshot absent or different after the restore),
backup_s, restore_s, and for information tables_differing, uploads_after_snapshot and
uploads_restored (runs of those uploads found after the restore: 0 is right, since their rows
committed after the snapshot).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(directory: Path, *, smoke: bool = False) -> None:
    """The source platform, migrated. A smoke run starts from the migrated schema the suite's
    SQLite test database was made from (tests/schema_template.py), where there is one: the
    suite's own tests migrate from nothing, and a smoke's figures are not judged."""
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "AWS_STORAGE_BUCKET_NAME"):
        os.environ.pop(name, None)  # the embedded mode: SQLite, tasks in-process
    os.environ["BAKEOFF_VAR_DIR"] = str(directory / "var")
    os.environ["MEDIA_ROOT"] = str(directory / "media")
    os.environ["BAKEOFF_CACHE_DIR"] = str(directory / "cache")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    if smoke:
        from tests import schema_template

        schema_template.copy_kept_schema(directory / "var")
    call_command("migrate", verbosity=0)


def late_sites(track_pk: int, count: int) -> list[str]:
    """``count`` more sites of the track, with no run yet: the members who upload during the
    backup."""
    from bakeoff.models import Track
    from tests.factories import make_site, make_user

    track = Track.objects.get(pk=track_pk)
    members = []
    for number in range(count):
        member = make_user(f"late-{number}")
        make_site(track.corpus.bakeoff, member, [track], name=f"Late {number}", institution="Late")
        members.append(member.username)
    return members


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sites", type=int, default=40, help="sites with two test runs each")
    parser.add_argument("--uploads", type=int, default=20, help="uploads during the backup")
    parser.add_argument("--smoke", action="store_true", help="a tiny drill, in seconds")
    args = parser.parse_args()
    if args.smoke:
        args.sites, args.uploads = 2, 2
    with tempfile.TemporaryDirectory(prefix="bakeoff-drill-") as name:
        directory = Path(name)
        setup_django(directory / "source", smoke=args.smoke)
        from django.db import connection

        from bakeoff import services
        from bakeoff.models import Submission, SubmissionPhase, Track
        from bakeoff.services.backup import do_backup
        from tests.factories import WORKED_RUN
        from tests.operations.drill import (
            build_published_bakeoff,
            compare,
            fingerprint,
            fresh_platform,
            manage,
            restored_fingerprint,
        )

        start = time.perf_counter()
        built = build_published_bakeoff(directory, sites=args.sites)
        late_members = late_sites(built.track_pk, args.uploads)
        print(f"built the platform in {time.perf_counter() - start:.1f} s")
        before = fingerprint()

        began, first_stored = threading.Event(), threading.Event()
        late: list[int] = []
        failures: list[BaseException] = []

        def upload() -> None:
            from django.contrib.auth.models import User

            began.wait()
            try:
                track = Track.objects.get(pk=built.track_pk)
                for username in late_members:
                    run = services.submit_run(
                        User.objects.get(username=username),
                        track,
                        WORKED_RUN.encode(),
                        phase=SubmissionPhase.POST_BAKEOFF,
                    )
                    late.append(run.pk)
                    first_stored.set()
            except BaseException as error:  # reported below, never swallowed
                failures.append(error)
                first_stored.set()
            finally:
                from django.db import connection as own

                own.close()

        def snapshot_taken() -> None:
            began.set()
            first_stored.wait(timeout=120)

        uploader = threading.Thread(target=upload)
        uploader.start()
        start = time.perf_counter()
        report = do_backup(directory / "backup", after_snapshot=snapshot_taken)
        backup_s = time.perf_counter() - start
        uploader.join()
        if failures:
            raise failures[0]
        print(
            f"backup: {sum(report.rows.values())} rows, {len(report.files)} files "
            f"({report.file_bytes} bytes) in {backup_s:.2f} s, while {len(late)} runs were "
            f"uploaded; {len(report.missing)} files missing"
        )
        stored_late = Submission.objects.filter(pk__in=late).exclude(file="").count()
        connection.close()

        with fresh_platform(directory / "restored", migrated=args.smoke) as env:
            start = time.perf_counter()
            done = manage(env, "restore", str(directory / "backup"))
            restore_s = time.perf_counter() - start
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                return 1
            print(f"restore (a fresh process, its migrate included): {restore_s:.2f} s")
            after = restored_fingerprint(env, directory / "restored.json")
        differences = compare(before, after)
        restored_runs = {
            row[0] for row in after["tables"]["bakeoff_submission"] if isinstance(row[0], int)
        }
        figures = {
            "exports_compared": differences.exports_compared,
            "exports_differing": len(differences.exports_differing),
            "files_compared": differences.files_compared,
            "files_differing": len(differences.files_differing),
            "rows_lost": differences.rows_lost,
            "backup_s": round(backup_s, 2),
            "restore_s": round(restore_s, 2),
            "tables_differing": len(differences.tables_differing),
            "uploads_after_snapshot": stored_late,
            "uploads_restored": len(restored_runs & set(late)),
        }
        for label, items in (
            ("exports differing", differences.exports_differing),
            ("files differing", differences.files_differing),
            ("tables differing", differences.tables_differing),
        ):
            print(f"{label}: {', '.join(items[:10]) or 'none'}")
        print(json.dumps(figures))
    return 0 if differences.none and not figures["uploads_restored"] else 1


if __name__ == "__main__":
    sys.exit(main())
