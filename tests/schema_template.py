"""The SQLite test database's tables, made by the migrations once per set of migrations.

Every pytest process (each xdist worker) makes its own test database, and migrating it cost some
3 s of the process's time, most of it Django rendering the models' states between operations. The
first process to migrate a set of migrations keeps the database it made in
``var/test-schema/<key>.sqlite3``, where the key hashes the migration files of every installed app
with Django's and SQLite's versions. A later process that finds it lets Django make the tables
without migrations (a fraction of a second), then replaces the whole database by the kept one
(SQLite's backup: tables, indexes, triggers, the rows the migrations and post_migrate wrote). A
change to any migration makes a new key: the schema tested is always the one the migrations make.

Only the test database is made this way: a migrate run later in the process (a restore's) runs the
migrations, and the PostgreSQL pass migrates its databases as before.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import django
from django.apps import apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import connection

KEPT = Path(__file__).resolve().parents[1] / "var" / "test-schema"


def _is_sqlite() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3")


@functools.cache
def kept_path() -> Path:
    """Where the schema of this set of migrations is kept (it may not exist yet)."""
    digest = hashlib.sha256()
    digest.update(f"django {django.__version__} sqlite {sqlite3.sqlite_version}\n".encode())
    for app in apps.get_app_configs():
        digest.update(f"app {app.label}\n".encode())
        spec = importlib.util.find_spec(f"{app.name}.migrations")
        for folder in (spec.submodule_search_locations or []) if spec else []:
            for path in sorted(Path(folder).glob("*.py")):
                digest.update(f"{path.name}\n".encode())
                digest.update(path.read_bytes())
    return KEPT / f"{digest.hexdigest()[:24]}.sqlite3"


def before_setup() -> None:
    """Where a kept schema will replace the test database's tables, Django makes them from the
    models instead of migrating (its own switch, for the test database alone)."""
    if _is_sqlite() and kept_path().exists():
        settings.DATABASES["default"].setdefault("TEST", {})["MIGRATE"] = False


def after_setup() -> None:
    """The kept schema copied into the test database made without migrations; or, after a
    migration, the database kept for the next process."""
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
