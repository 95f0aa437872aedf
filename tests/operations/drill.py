"""What a restore drill compares, and where it restores to (tests/operations and
benchmarks/restore_drill.py).

A fingerprint of a platform: every row of every table (read with plain SQL, not with the
serialisation the backup uses, so that a field the backup forgot would show), the checksum of every
stored file its rows name (read through the storage), and every public export of every results
version and track (CSV, JSON, LaTeX, SVG: the status and the bytes). The restored platform runs in
a process of its own (its own database and storage): ``python -m tests.operations.drill OUT``
writes its fingerprint there.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# Tables whose rows say how the database was made rather than what it holds: the applied
# migrations are compared by name (their times are when `migrate` ran); SQLite's own counters.
NOT_COMPARED = {"django_migrations", "sqlite_sequence"}


def _cell(value: object) -> object:
    if isinstance(value, memoryview | bytes):
        return bytes(value).hex()
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def _json_columns() -> set[tuple[str, str | None]]:
    """The (table, column) of every JSON field: SQLite keeps a JSON value as text, which the
    database's own JSON functions write without the spaces Django's serialiser puts in, so such
    a cell is compared by the value it holds, not by its spelling."""
    from django.apps import apps
    from django.db import models

    return {
        (model._meta.db_table, field.column)
        for model in apps.get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, models.JSONField)
    }


def table_rows() -> dict[str, list[list[object]]]:
    """Every row of every table, sorted, as JSON-able cells."""
    from django.db import connection

    # PostgreSQL hands a JSON cell over as its value already
    json_columns = _json_columns() if connection.vendor == "sqlite" else set()
    rows: dict[str, list[list[object]]] = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names()):
            if table in NOT_COMPARED:
                continue
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            parsed = [(table, column[0]) in json_columns for column in cursor.description]
            found = [
                [
                    json.loads(value) if is_json and isinstance(value, str) else _cell(value)
                    for value, is_json in zip(row, parsed, strict=True)
                ]
                for row in cursor.fetchall()
            ]
            rows[table] = sorted(found, key=lambda row: json.dumps(row, sort_keys=True))
    return rows


def applied_migrations() -> list[str]:
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    return sorted(f"{a}.{n}" for a, n in MigrationRecorder(connection).applied_migrations())


def stored_files() -> dict[str, str]:
    """The sha256 of every file a row names (``missing`` where the storage has none)."""
    from bakeoff.services.backup import file_fields

    found: dict[str, str] = {}
    for model, field in file_fields():
        for name in model._base_manager.exclude(**{field.name: ""}).values_list(
            field.name, flat=True
        ):
            if name in found:
                continue
            digest = hashlib.sha256()
            try:
                with field.storage.open(name, "rb") as source:
                    while chunk := source.read(1 << 20):
                        digest.update(chunk)
            except Exception:
                if field.storage.exists(name):
                    raise
                found[name] = "missing"
                continue
            found[name] = digest.hexdigest()
    return found


def export_paths() -> list[str]:
    """Every public export: of every results version and its tracks, and every live track."""
    from django.urls import reverse

    from bakeoff.models import Track
    from leaderboard.models import ResultsVersion

    paths: list[str] = []
    for version in ResultsVersion.objects.select_related("bakeoff").order_by("pk"):
        args = {"slug": version.bakeoff.slug, "number": version.number}
        paths.append(reverse("leaderboard:version-f-plot", kwargs=args))
        paths.append(reverse("leaderboard:version-oov-plot", kwargs=args))
        for track in Track.objects.filter(corpus__bakeoff=version.bakeoff).order_by("pk"):
            for name in ("version-csv", "version-json", "version-tex", "version-plot"):
                paths.append(reverse(f"leaderboard:{name}", kwargs={**args, "track": track.slug}))
    for track in Track.objects.select_related("corpus__bakeoff").order_by("pk"):
        args = {"slug": track.corpus.bakeoff.slug, "track": track.slug}
        for name in ("csv", "json", "tex", "track-plot"):
            paths.append(reverse(f"leaderboard:{name}", kwargs=args))
    return paths


def exports() -> dict[str, str]:
    """Each export's status and the sha256 of its bytes, as an anonymous visitor reads it."""
    from django.test import Client

    client = Client()
    found: dict[str, str] = {}
    for path in export_paths():
        answer = client.get(path)
        body = (
            b"".join(answer.streaming_content)  # type: ignore[attr-defined]
            if answer.streaming
            else answer.content
        )
        found[path] = f"{answer.status_code} {hashlib.sha256(body).hexdigest()}"
    return found


def fingerprint() -> dict[str, Any]:
    return {
        "tables": table_rows(),
        "migrations": applied_migrations(),
        "files": stored_files(),
        "exports": exports(),
    }


@dataclass(frozen=True)
class Differences:
    """What differs between two fingerprints (the drill's figures)."""

    exports_compared: int
    exports_differing: list[str]
    files_compared: int
    files_differing: list[str]
    tables_differing: list[str]
    rows_lost: int
    migrations_equal: bool

    @property
    def none(self) -> bool:
        return not (
            self.exports_differing
            or self.files_differing
            or self.tables_differing
            or self.rows_lost
            or not self.migrations_equal
        )


def compare(source: dict[str, Any], restored: dict[str, Any]) -> Differences:
    tables = sorted(set(source["tables"]) | set(restored["tables"]))
    lost = 0
    for table in tables:
        theirs = {json.dumps(row) for row in restored["tables"].get(table, [])}
        lost += sum(json.dumps(row) not in theirs for row in source["tables"].get(table, []))
    return Differences(
        exports_compared=len(source["exports"]),
        exports_differing=sorted(
            path
            for path in set(source["exports"]) | set(restored["exports"])
            if source["exports"].get(path) != restored["exports"].get(path)
        ),
        files_compared=len(source["files"]),
        files_differing=sorted(
            name
            for name in set(source["files"]) | set(restored["files"])
            if source["files"].get(name) != restored["files"].get(name)
        ),
        tables_differing=[
            t for t in tables if source["tables"].get(t) != restored["tables"].get(t)
        ],
        rows_lost=lost,
        migrations_equal=source["migrations"] == restored["migrations"],
    )


# -- a second platform to restore into ----------------------------------------------------------


def _server_database_url(name: str) -> str:
    from django.db import connection

    db = connection.settings_dict
    user = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def _admin(statement: str) -> None:
    """A statement outside any database (CREATE or DROP DATABASE), as Django's test runner
    makes the test database."""
    from django.db import connection

    with connection._nodb_cursor() as cursor:
        cursor.execute(statement)


@contextmanager
def fresh_platform(
    directory: Path, more: Mapping[str, str] | None = None, *, migrated: bool = False
) -> Iterator[dict[str, str]]:
    """The environment of an empty platform beside this one: on PostgreSQL a new database on the
    same server (this database's name + ``_restored``), on SQLite a file under ``directory``;
    its files under ``directory/media`` (or the bucket the variables ``more`` names).

    ``migrated``: the database starts as the migrated schema the test database was made from
    (tests/schema_template.py: a copy of the SQLite file, or PostgreSQL's copy of the kept
    database), so that a restore's ``migrate`` has nothing to do (some seconds a restore). A test
    whose subject is not the migration takes it; at least one restore of each pass starts from
    nothing."""
    from django.db import connection

    from tests import schema_template

    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "AWS_STORAGE_BUCKET_NAME", "PYTEST_CURRENT_TEST"}
    }
    env.update(
        BAKEOFF_VAR_DIR=str(directory / "var"),
        MEDIA_ROOT=str(directory / "media"),
        BAKEOFF_CACHE_DIR=str(directory / "cache"),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    name = None
    if connection.vendor == "postgresql":
        name = f"{connection.settings_dict['NAME']}_restored"
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        template = (
            f' TEMPLATE "{schema_template.kept_database()}"'
            if migrated and schema_template.kept_database_exists()
            else ""
        )
        _admin(f'CREATE DATABASE "{name}"{template}')
        env["DATABASE_URL"] = _server_database_url(name)
        env.setdefault("SECRET_KEY", uuid.uuid4().hex * 2)
        env.setdefault("SECURE_SSL_REDIRECT", "0")
    else:
        env.pop("CELERY_BROKER_URL", None)
        if migrated:
            schema_template.copy_kept_schema(directory / "var")
    env.update(more or {})
    try:
        yield env
    finally:
        if name is not None:
            _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "manage.py"), *args],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )


def restored_fingerprint(env: dict[str, str], out: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.operations.drill", str(out)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


# -- a platform worth backing up ----------------------------------------------------------------

DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUN = "我们 在 上海 学 习\n明天 天气 很 好\n"
# The erratum's gold: 今天天气 one word.
CORRECTED_GOLD = "结婚 的 和 尚未 结婚 的\n我们 在 北京 工作\n今天天气 很 好\n"
PAPER = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"


@dataclass(frozen=True)
class Built:
    bakeoff_slug: str
    track_pk: int
    uploader: str  # a member of a site of the track, who may still upload (post-bakeoff)


def build_published_bakeoff(directory: Path, *, sites: int = 2) -> Built:
    """A published bakeoff with an erratum and runs of every phase (development, test,
    post-bakeoff), a paper, and the standing SIGHAN 2005 board (the tests' tiny release), all
    through the services, tasks run as they commit (call it outside any transaction)."""
    from django.core.management import call_command

    from bakeoff import services
    from bakeoff.models import SubmissionPhase
    from bakeoff.services.development import do_add_development_set
    from bakeoff.services.phases import do_open_post_bakeoff
    from leaderboard.services import do_publish_erratum
    from tests.factories import (
        GOLD,
        RUNS,
        TEST,
        WORDS,
        make_bakeoff,
        make_corpus,
        make_site,
        make_user,
        publish,
        track,
    )

    organiser = make_user("drill-organiser")
    bakeoff = make_bakeoff(organiser=organiser, slug="drill")
    corpus = make_corpus(bakeoff)
    closed = track(corpus)
    do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())
    members = []
    for number in range(sites):
        member = make_user(f"drill-site-{number}")
        make_site(bakeoff, member, [closed], name=f"Site {number}", institution=f"Lab {number}")
        members.append(member)
        if number == 0:
            services.submit_run(member, closed, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT)
            services.do_attach_paper(member, closed, upload=PAPER, title="Our system")
        for run in range(2):
            services.submit_run(
                member,
                closed,
                RUNS[(number + run) % len(RUNS)].encode(),
                description=f"System {number}.{run}",
            )
    publish(bakeoff)
    services.do_add_gold_version(corpus, CORRECTED_GOLD.encode(), note="今天天气 is one word")
    do_publish_erratum(bakeoff, note="今天天气 is one word")
    do_open_post_bakeoff(closed)
    services.submit_run(members[0], closed, RUNS[1].encode(), phase=SubmissionPhase.POST_BAKEOFF)
    release = directory / "icwb2"
    (release / "gold").mkdir(parents=True)
    (release / "testing").mkdir()
    (release / "gold" / "pku_test_gold.utf8").write_text(GOLD, encoding="utf-8")
    (release / "gold" / "pku_training_words.utf8").write_text(WORDS, encoding="utf-8")
    (release / "testing" / "pku_test.utf8").write_text(TEST, encoding="utf-8")
    call_command("import_icwb2", str(release), "--standing", stdout=DiscardedOutput())
    return Built(bakeoff.slug, closed.pk, members[0].username)


class DiscardedOutput:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def main() -> None:
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    Path(sys.argv[1]).write_text(json.dumps(fingerprint()), encoding="utf-8")


if __name__ == "__main__":
    main()
