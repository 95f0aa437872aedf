"""Backup and restore of the whole platform: the database and every stored file it names.

A backup is a directory (docs/operations.md)::

    manifest.json        what is in it, with a checksum of every part and of itself
    database.jsonl.gz    every row of every table, one JSON object a line (Django's serialisation)
    files/<name>         every stored file a row names, under its storage name

Database and files are taken as one: the rows come from one snapshot of the database (one
REPEATABLE READ transaction on PostgreSQL, one read transaction on SQLite), and the files copied
are exactly those that snapshot names, read through the storage API (local disk or S3). An upload
that commits after the snapshot is absent, row and file; one that committed before is present,
row and file; a file written after the snapshot is never copied. A row whose file cannot be found
is listed in the manifest and reported, never skipped in silence.

Restoring (``restore``) checks every checksum before it writes anything, and writes only into an
empty database and an empty storage.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time
from pathlib import Path, PurePosixPath
from typing import IO, Any

from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.files.storage import Storage
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connections, models, router, transaction
from django.db.migrations.recorder import MigrationRecorder

import scoring

FORMAT = "bakeoff-backup"
# Read forever: a later release restores every format number it lists here.
KNOWN_FORMAT_VERSIONS = (1,)
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DATABASE = "database.jsonl.gz"
FILES = "files"
CHUNK = 1024 * 1024
# Rows that `migrate` itself writes into a new database: a database holding only these is empty.
MIGRATE_WRITES = (ContentType, Permission)


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why, for the operator."""


@dataclass(frozen=True)
class StoredFile:
    """A file named by the database, as copied into a backup."""

    name: str
    size: int
    sha256: str
    fields: tuple[str, ...]  # the model fields that name it, e.g. "bakeoff.Submission.file"


@dataclass(frozen=True)
class MissingFile:
    """A file named by a row of the snapshot that the storage does not hold."""

    name: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class BackupReport:
    directory: Path
    rows: dict[str, int]
    files: tuple[StoredFile, ...]
    missing: tuple[MissingFile, ...]

    @property
    def file_bytes(self) -> int:
        return sum(f.size for f in self.files)


# -- what the database names ------------------------------------------------------------------


def backed_up_models() -> list[type[models.Model]]:
    """Every model with a table, in the order of INSTALLED_APPS, the tables Django makes for
    many-to-many fields included: their rows are written as rows of their own, with their
    primary keys, rather than as lists on the model that declares the field (which restore
    would insert under new keys)."""
    connection = connections[DEFAULT_DB_ALIAS]
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if not model._meta.proxy
        and model._meta.managed
        and router.allow_migrate_model(connection.alias, model)
    ]


def _own_fields(model: type[models.Model]) -> list[str]:
    """The fields serialised with a row: its columns, not its many-to-many lists."""
    return [f.name for f in model._meta.concrete_fields if not f.primary_key]


def file_fields() -> list[tuple[type[models.Model], models.FileField]]:
    """Every FileField (and ImageField) of every backed-up model, found by walking the models."""
    return [
        (model, model_field)
        for model in backed_up_models()
        for model_field in model._meta.concrete_fields
        if isinstance(model_field, models.FileField)
    ]


def field_label(model: type[models.Model], model_field: models.Field[Any, Any]) -> str:
    return f"{model._meta.label}.{model_field.name}"


def _named_files() -> dict[str, list[tuple[models.FileField, str]]]:
    """Every stored name a row names, with the fields naming it (read in the caller's snapshot)."""
    named: dict[str, list[tuple[models.FileField, str]]] = {}
    for model, model_field in file_fields():
        names = (
            model._base_manager.exclude(**{model_field.name: ""})
            .exclude(**{f"{model_field.name}__isnull": True})
            .values_list(model_field.name, flat=True)
            .distinct()
        )
        for name in names:
            named.setdefault(str(name), []).append((model_field, field_label(model, model_field)))
    return named


def check_storage_name(name: str) -> PurePosixPath:
    """A storage name as a relative path that stays inside the backup's ``files/``."""
    path = PurePosixPath(name)
    if not name or path.is_absolute() or ".." in path.parts or "\\" in name:
        raise BackupError(f"The stored name {name!r} is not a relative path: refusing it.")
    return path


# -- taking a backup --------------------------------------------------------------------------


def _migration_state() -> dict[str, list[str]]:
    applied = MigrationRecorder(connections[DEFAULT_DB_ALIAS]).applied_migrations()
    state: dict[str, list[str]] = {}
    for app_label, name in sorted(applied):
        state.setdefault(app_label, []).append(name)
    return state


def _dump_database(path: Path) -> dict[str, int]:
    """Every row of every backed-up model into ``path``, by primary key; the count per model."""
    rows: dict[str, int] = {}
    with gzip.open(path, "wt", encoding="utf-8") as stream:
        for model in backed_up_models():
            counted = _Counting(model._base_manager.order_by(model._meta.pk.name).iterator(2000))
            serializers.serialize(
                "jsonl", counted, stream=stream, cls=ExactEncoder, fields=_own_fields(model)
            )
            rows[model._meta.label] = counted.count
    return rows


class ExactEncoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds (DjangoJSONEncoder cuts them to
    milliseconds, as ECMAScript does: a restored row would not equal the one backed up)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime | time):
            return o.isoformat()
        return super().default(o)


class _Counting:
    def __init__(self, objects: Iterator[models.Model]) -> None:
        self.objects = objects
        self.count = 0

    def __iter__(self) -> Iterator[models.Model]:
        for obj in self.objects:
            self.count += 1
            yield obj


def _snapshot(
    directory: Path,
) -> tuple[dict[str, int], dict[str, list[tuple[models.FileField, str]]], dict[str, list[str]]]:
    """Rows, named files and migration state, all read in one transaction."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.in_atomic_block:
        raise BackupError("A backup takes its own snapshot: call it outside any transaction.")
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # The first statement of the transaction: every later read sees the same instant.
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        # On SQLite the transaction's first read fixes what it sees until it ends (a shared
        # lock, or the WAL snapshot): writers wait or write after it.
        state = _migration_state()
        rows = _dump_database(directory / DATABASE)
        named = _named_files()
    return rows, named, state


def _copy(source: IO[bytes], target: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with target.open("wb") as out:
        while chunk := source.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    return size, digest.hexdigest()


def _copy_named_files(
    directory: Path, named: dict[str, list[tuple[models.FileField, str]]]
) -> tuple[list[StoredFile], list[MissingFile]]:
    copied: list[StoredFile] = []
    missing: list[MissingFile] = []
    for name in sorted(named):
        target = directory / FILES / check_storage_name(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        storage: Storage = named[name][0][0].storage
        labels = tuple(sorted({label for _, label in named[name]}))
        try:
            with storage.open(name, "rb") as source:
                size, sha256 = _copy(source, target)
        except Exception:
            target.unlink(missing_ok=True)
            if storage.exists(name):
                raise
            missing.append(MissingFile(name, labels))
            continue
        copied.append(StoredFile(name, size, sha256, labels))
    return copied, missing


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def manifest_checksum(manifest: dict[str, Any]) -> str:
    """The checksum of every entry of the manifest but itself (canonical JSON)."""
    body = {key: value for key, value in manifest.items() if key != "checksum"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _nothing() -> None:
    pass


def do_backup(directory: Path, *, after_snapshot: Callable[[], None] = _nothing) -> BackupReport:
    """Back the platform up into ``directory`` (absent or empty).

    ``after_snapshot`` runs between the database snapshot and the copy of the files (a test or
    a drill stores a run there, as an upload arriving during the backup would)."""
    directory = Path(directory)
    if directory.exists() and any(directory.iterdir()):
        raise BackupError(f"{directory} is not empty: a backup goes into a new directory.")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / FILES).mkdir()
    created_at = datetime.now(UTC)
    rows, named, state = _snapshot(directory)
    after_snapshot()
    copied, missing = _copy_named_files(directory, named)
    database = directory / DATABASE
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "created_at": created_at.isoformat(),
        "platform_version": scoring.__version__,
        "migrations": state,
        "database": {
            "engine": connections[DEFAULT_DB_ALIAS].vendor,
            "file": DATABASE,
            "size": database.stat().st_size,
            "sha256": sha256_of(database),
            "rows": rows,
        },
        "files": [
            {"name": f.name, "size": f.size, "sha256": f.sha256, "fields": list(f.fields)}
            for f in copied
        ],
        "missing_files": [{"name": m.name, "fields": list(m.fields)} for m in missing],
    }
    manifest["checksum"] = manifest_checksum(manifest)
    # Written last, under a temporary name: a directory without manifest.json is no backup.
    partial = directory / (MANIFEST + ".partial")
    partial.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(partial, directory / MANIFEST)
    return BackupReport(directory, rows, tuple(copied), tuple(missing))


# -- checking a backup ------------------------------------------------------------------------


def check_backup(directory: Path) -> dict[str, Any]:
    """The manifest of the backup in ``directory`` once every checksum in it is verified;
    BackupError naming the first part that does not match."""
    directory = Path(directory)
    path = directory / MANIFEST
    if not path.is_file():
        raise BackupError(f"{path} is missing: this is no complete backup.")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BackupError(f"{path} is not a readable manifest ({error}).") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{path} is not the manifest of a platform backup.")
    version = manifest.get("format_version")
    if version not in KNOWN_FORMAT_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_FORMAT_VERSIONS)
        raise BackupError(
            f"{path}: backup format version {version!r} is unknown to this release "
            f"(it reads {known}); restore it with a release that knows it."
        )
    if manifest.get("checksum") != manifest_checksum(manifest):
        raise BackupError(f"{path}: its checksum does not match its contents.")
    database = manifest["database"]
    _check_part(directory / str(database["file"]), int(database["size"]), str(database["sha256"]))
    for entry in manifest["files"]:
        target = directory / FILES / check_storage_name(str(entry["name"]))
        _check_part(target, int(entry["size"]), str(entry["sha256"]))
    return dict(manifest)


def _check_part(path: Path, size: int, sha256: str) -> None:
    if not path.is_file():
        raise BackupError(f"{path} is named by the manifest but absent from the backup.")
    if path.stat().st_size != size or sha256_of(path) != sha256:
        raise BackupError(f"{path} does not match its checksum in the manifest: refusing.")


# -- restoring --------------------------------------------------------------------------------
