"""Restoring a backup (``backup``): every checksum is checked before anything is written, and
only into an empty database and an empty storage (docs/operations.md).
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.files import File
from django.core.files.storage import Storage
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.migrations.loader import MigrationLoader

from .backup import (
    FILES,
    MIGRATE_WRITES,
    BackupError,
    MissingFile,
    backed_up_models,
    check_backup,
    check_storage_name,
    field_label,
    file_fields,
)


@dataclass(frozen=True)
class RestoreReport:
    rows: dict[str, int]
    files: int
    file_bytes: int
    missing: tuple[MissingFile, ...] = field(default=())


def _check_migrations(manifest: dict[str, Any]) -> None:
    """The backup's schema is this release's: its rows fit the tables ``migrate`` makes."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    applied = {
        (app_label, name)
        for app_label, names in dict(manifest["migrations"]).items()
        for name in names
    }
    missing = sorted(set(loader.graph.leaf_nodes()) - applied)
    # A squashed migration stands for the ones it replaces: a database may record either.
    replaced = {tuple(r) for squash in loader.replacements.values() for r in squash.replaces}
    unknown = sorted(
        node
        for node in applied - set(loader.graph.nodes) - replaced
        if node[0] in loader.migrated_apps
    )
    if missing or unknown:
        differences = [f"{a}.{n} (not in the backup)" for a, n in missing]
        differences += [f"{a}.{n} (unknown to this release)" for a, n in unknown]
        raise BackupError(
            "The backup was taken at another schema than this release's: "
            + ", ".join(differences[:5])
            + ". Restore it with the release that took it, then upgrade."
        )


def _rows_present() -> dict[str, int]:
    connection = connections[DEFAULT_DB_ALIAS]
    tables = set(connection.introspection.table_names())
    present: dict[str, int] = {}
    for model in backed_up_models():
        if model in MIGRATE_WRITES or model._meta.db_table not in tables:
            continue
        count = model._base_manager.count()
        if count:
            present[model._meta.label] = count
    return present


def check_database_empty() -> None:
    present = _rows_present()
    if present:
        listed = ", ".join(f"{label} ({n})" for label, n in sorted(present.items())[:5])
        raise BackupError(
            f"The database is not empty ({listed}): a backup is restored into a new, empty "
            "database only. Create one (or drop this one) and point DATABASE_URL at it."
        )


def _storages() -> list[Storage]:
    found: list[Storage] = []
    for _, model_field in file_fields():
        if not any(model_field.storage is s for s in found):
            found.append(model_field.storage)
    return found


def _stored_names(storage: Storage, directory: str = "") -> Iterator[str]:
    try:
        directories, names = storage.listdir(directory)
    except FileNotFoundError:
        return
    for name in names:
        yield f"{directory}/{name}" if directory else name
    for sub in directories:
        yield from _stored_names(storage, f"{directory}/{sub}" if directory else sub)


def check_storage_empty() -> None:
    for storage in _storages():
        for name in _stored_names(storage):
            raise BackupError(
                f"The file storage is not empty (it holds {name}): a backup is restored into a "
                "new, empty storage only (an empty media directory or bucket)."
            )


def _load_database(path: Path) -> dict[str, int]:
    connection = connections[DEFAULT_DB_ALIAS]
    rows: Counter[str] = Counter()
    # migrate wrote its own content types and permissions; the backup's replace them, with
    # their primary keys, which every other row refers to.
    for model in reversed(MIGRATE_WRITES):
        model._base_manager.all().delete()
    with (
        gzip.open(path, "rt", encoding="utf-8") as stream,
        connection.constraint_checks_disabled(),
    ):
        for deserialized in serializers.deserialize("jsonl", stream):
            deserialized.save()
            rows[deserialized.object._meta.label] += 1
    connection.check_constraints()
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), backed_up_models()):
            cursor.execute(statement)
    return dict(rows)


def _restore_files(
    directory: Path, manifest: dict[str, Any], written: list[tuple[Storage, str]]
) -> int:
    storages = {field_label(model, f): f.storage for model, f in file_fields()}
    total = 0
    for entry in manifest["files"]:
        name = str(entry["name"])
        storage = next((storages[label] for label in entry["fields"] if label in storages), None)
        if storage is None:
            raise BackupError(f"No model field of this release stores {name}: {entry['fields']}.")
        with (directory / FILES / check_storage_name(name)).open("rb") as source:
            saved = storage.save(name, File(source, name=name))
        written.append((storage, saved))
        if saved != name:
            raise BackupError(f"The storage saved {name} as {saved}: it is not empty.")
        total += int(entry["size"])
    return total


def do_restore(directory: Path) -> RestoreReport:
    """Restore the backup in ``directory`` into this (empty) database and (empty) storage.

    Every checksum is verified first; then the schema is migrated, the rows loaded and the files
    written in one transaction: if a file cannot be written, the rows are rolled back and the
    files already written removed."""
    directory = Path(directory)
    manifest = check_backup(directory)
    _check_migrations(manifest)
    check_database_empty()
    check_storage_empty()
    call_command("migrate", interactive=False, verbosity=0)
    check_database_empty()
    written: list[tuple[Storage, str]] = []
    try:
        with transaction.atomic():
            rows = _load_database(directory / str(manifest["database"]["file"]))
            expected = {k: v for k, v in dict(manifest["database"]["rows"]).items() if v}
            if rows != expected:
                raise BackupError(
                    f"The database dump holds other rows than its manifest says: {rows}."
                )
            file_bytes = _restore_files(directory, manifest, written)
    except BaseException:
        for storage, name in written:
            storage.delete(name)
        raise
    ContentType.objects.clear_cache()
    missing = tuple(
        MissingFile(str(m["name"]), tuple(m["fields"])) for m in manifest["missing_files"]
    )
    return RestoreReport(rows, len(written), file_bytes, missing)
