"""The test database's tables, made by the migrations once per set of migrations.

Every pytest process (each xdist worker) makes its own test database, and migrating it cost some
3 s of the process's time, most of it Django rendering the models' states between operations. The
first process to migrate a set of migrations keeps the database it made in
``var/test-schema/<key>.sqlite3``, where the key hashes the migration files of every installed app
with Django's and SQLite's versions. A later process that finds it lets Django make the tables
without migrations (a fraction of a second), then replaces the whole database by the kept one
(SQLite's backup: tables, indexes, triggers, the rows the migrations and post_migrate wrote). A
change to any migration makes a new key: the schema tested is always the one the migrations make.

On PostgreSQL the kept copy is a database on the server, ``bakeoff_schema_<key>`` (the key adds the
server's version): the first worker to migrate copies its fresh test database there, and a later
one has PostgreSQL make its test database from it (``CREATE DATABASE ... TEMPLATE``, a tenth of a
second against some 5 s of migrating), Django's own ``TEST["TEMPLATE"]`` setting. Nothing ever
connects to the kept database: PostgreSQL copies a template only while nobody is connected to it.

Only the test database is made this way, and a restore that asks for it (tests/operations/drill.py,
``migrated=True``): any other migrate run later in the process (a restore's) runs the migrations.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import django
from django.apps import apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.utils import ProgrammingError

KEPT = Path(__file__).resolve().parents[1] / "var" / "test-schema"


def _is_sqlite() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3")


def _is_postgresql() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


def _migrations_key(engine: str) -> str:
    digest = hashlib.sha256()
    digest.update(f"django {django.__version__} {engine}\n".encode())
    for app in apps.get_app_configs():
        digest.update(f"app {app.label}\n".encode())
        spec = importlib.util.find_spec(f"{app.name}.migrations")
        for folder in (spec.submodule_search_locations or []) if spec else []:
            for path in sorted(Path(folder).glob("*.py")):
                digest.update(f"{path.name}\n".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


@functools.cache
def kept_path() -> Path:
    """Where the SQLite schema of this set of migrations is kept (it may not exist yet)."""
    return KEPT / f"{_migrations_key(f'sqlite {sqlite3.sqlite_version}')}.sqlite3"


def copy_kept_schema(var_dir: Path) -> bool:
    """A platform whose ``BAKEOFF_VAR_DIR`` is ``var_dir`` starts from the kept SQLite schema, its
    ``migrate`` then having nothing to do; False where none is kept yet (it migrates)."""
    kept = kept_path()
    if not kept.exists():
        return False
    var_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(kept, var_dir / "db.sqlite3")
    return True


@functools.cache
def kept_database() -> str:
    """The name of the PostgreSQL database that keeps this set of migrations' schema (it may not
    exist yet)."""
    with connection._nodb_cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        (version,) = cursor.fetchone()
    return f"bakeoff_schema_{_migrations_key(f'postgresql {version}')}"


def kept_database_exists() -> bool:
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_catalog.pg_database WHERE datname = %s", [kept_database()])
        return cursor.fetchone() is not None


def before_setup() -> None:
    """Where a kept schema will replace the test database's tables, Django makes them from the
    models instead of migrating (its own switch, for the test database alone)."""
    if _is_sqlite() and kept_path().exists():
        settings.DATABASES["default"].setdefault("TEST", {})["MIGRATE"] = False
    elif _is_postgresql() and kept_database_exists():
        # the tables are the template's: Django's migrate without migrations finds them all there
        test_settings = settings.DATABASES["default"].setdefault("TEST", {})
        test_settings.update(MIGRATE=False, TEMPLATE=kept_database())


def after_setup() -> None:
    """The kept schema copied into the test database made without migrations; or, after a
    migration, the database kept for the next process."""
    if _is_postgresql():
        _keep_postgresql()
        return
    if not _is_sqlite():
        return
    test_settings = settings.DATABASES["default"].setdefault("TEST", {})
    connection.ensure_connection()
    raw = connection.connection
    if test_settings.get("MIGRATE") is False:
        test_settings["MIGRATE"] = True  # as it was: only the test database skips them
        with closing(sqlite3.connect(kept_path())) as kept:
            kept.backup(raw)
        # The content types that post_migrate made for the tables replaced, and cached, are not
        # the kept ones (their keys may differ).
        ContentType.objects.clear_cache()
        return
    path = kept_path()
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside, then renamed: another worker may be writing or reading the same key.
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
    os.close(handle)
    try:
        with closing(sqlite3.connect(temporary)) as copy:
            raw.backup(copy)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _keep_postgresql() -> None:
    test_settings = settings.DATABASES["default"].setdefault("TEST", {})
    if test_settings.get("MIGRATE") is False:
        test_settings["MIGRATE"] = True  # as it was: only the test database skips them
        test_settings.pop("TEMPLATE", None)
        return
    if kept_database_exists():
        return
    # The test database as the migrations left it, before any test wrote to it. Copied under a
    # name of its own, then renamed: a worker that finds the kept name finds a whole database.
    name = connection.settings_dict["NAME"]
    part = f"{kept_database()}_{os.getpid()}"
    connection.close()
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{part}" TEMPLATE "{name}"')
        try:
            cursor.execute(f'ALTER DATABASE "{part}" RENAME TO "{kept_database()}"')
        except ProgrammingError:  # another worker kept it first
            cursor.execute(f'DROP DATABASE "{part}"')
