"""The PostgreSQL test database made from the kept migrated database (tests/schema_template.py) is
the one the migrations make: every migration on disk is recorded as applied, and what a migration
adds beside the models (the audit trail's trigger) is there."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests import schema_template

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the kept database is PostgreSQL's"
    ),
]


def test_the_kept_database_is_on_the_server_after_the_setup() -> None:
    assert schema_template.kept_database_exists()
    assert schema_template.kept_database() != connection.settings_dict["NAME"]


def test_every_migration_on_disk_is_applied_in_the_test_database() -> None:
    loader = MigrationLoader(connection)
    assert set(loader.disk_migrations) <= loader.applied_migrations.keys()
    assert loader.detect_conflicts() == {}


def test_the_audit_trail_keeps_its_trigger() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'bakeoff_auditentry'::regclass"
            " AND NOT tgisinternal"
        )
        assert [name for (name,) in cursor.fetchall()] == ["bakeoff_audit_append_only"]
