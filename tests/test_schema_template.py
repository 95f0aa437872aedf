"""The SQLite test database made from a kept migrated copy (tests/schema_template.py) is the one
the migrations make: every migration on disk is recorded as applied in it, and its tables, indexes
and triggers are the kept copy's."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests import schema_template

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the kept schema is SQLite's test database's"
)

SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"


def test_every_migration_on_disk_is_applied_in_the_test_database(db: None) -> None:
    loader = MigrationLoader(connection)
    assert set(loader.disk_migrations) <= loader.applied_migrations.keys()
    assert loader.detect_conflicts() == {}


def test_the_test_database_has_the_kept_schema(db: None) -> None:
    kept = schema_template.kept_path()
    assert kept.exists()  # the session's setup kept it, or read it
    with closing(sqlite3.connect(kept)) as copy:
        expected = copy.execute(SCHEMA).fetchall()
    with connection.cursor() as cursor:
        cursor.execute(SCHEMA)
        assert cursor.fetchall() == expected
