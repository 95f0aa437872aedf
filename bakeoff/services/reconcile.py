"""Storage against the database: files that no row names, and rows whose file is gone.

Every stored file of the platform is named by a ``FileField`` of some row (a run, a corpus's
texts, a gold version, a development set, a paper). A file without its row is an orphan: an upload
whose row was never written (a crash between the two, a refused row, a full disk). A row without
its file is a loss: the one thing that must never happen, reported so that an operator restores
the file from a backup (docs/operations.md).

An orphan is removed only when asked and only once it is older than ``min_age``: a file written a
moment ago may belong to a row whose transaction has not committed yet.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.apps import apps
from django.core.files.storage import Storage, default_storage
from django.db import models

from .. import clock

# What ``do_reconcile`` never removes, however old: one hour, as docs/operations.md says.
DEFAULT_MIN_AGE = timedelta(hours=1)


@dataclass(frozen=True)
class FileColumn:
    """One ``FileField`` of one model, and the folder of storage its files go to."""

    model: type[models.Model]
    field: str
    folder: str

    @property
    def label(self) -> str:
        return f"{self.model._meta.label}.{self.field}"


@dataclass(frozen=True)
class StoredFile:
    name: str
    size: int
    modified: datetime


@dataclass(frozen=True)
class MissingFile:
    """A row whose file is not in storage."""

    column: str
    pk: object
    name: str


@dataclass
class Reconciliation:
    named: int = 0
    stored: int = 0
    orphans: list[StoredFile] = field(default_factory=list)
    missing: list[MissingFile] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept_young: list[str] = field(default_factory=list)


def file_columns() -> list[FileColumn]:
    """Every ``FileField`` of every installed model, found by walking the models (a new one is
    reconciled and backed up without a list to keep)."""
    found = []
    for model in apps.get_models():
        for column in model._meta.get_fields():
            if isinstance(column, models.FileField):
                upload_to = column.upload_to
                folder = upload_to.strip("/").split("/")[0] if isinstance(upload_to, str) else ""
                found.append(FileColumn(model, column.name, folder))
    return found


def named_files(columns: list[FileColumn]) -> dict[str, list[tuple[str, object]]]:
    """Each stored name a row names, with the rows (column, primary key) that name it."""
    named: dict[str, list[tuple[str, object]]] = {}
    for column in columns:
        rows = column.model._default_manager.exclude(**{column.field: ""}).values_list(
            "pk", column.field
        )
        for pk, name in rows.iterator():
            if name:
                named.setdefault(str(name), []).append((column.label, pk))
    return named


def _walk(storage: Storage, folder: str) -> Iterator[str]:
    try:
        directories, files = storage.listdir(folder)
    except FileNotFoundError:  # nothing was ever stored there
        return
    for name in files:
        yield f"{folder}/{name}" if folder else name
    for directory in directories:
        yield from _walk(storage, f"{folder}/{directory}" if folder else directory)


def stored_files(storage: Storage, folders: set[str]) -> list[StoredFile]:
    """The files under the platform's folders of ``storage`` (nothing else there is looked at)."""
    found = []
    for folder in sorted(folders):
        for name in _walk(storage, folder):
            found.append(StoredFile(name, storage.size(name), storage.get_modified_time(name)))
    return found


def do_reconcile(
    *,
    remove_orphans: bool = False,
    min_age: timedelta = DEFAULT_MIN_AGE,
    storage: Storage | None = None,
    now: datetime | None = None,
) -> Reconciliation:
    """Compare storage with the rows that name its files; remove the orphans older than
    ``min_age`` if ``remove_orphans``."""
    storage = storage or default_storage
    now = now or clock.now()
    columns = file_columns()
    named = named_files(columns)
    folders = {c.folder for c in columns if c.folder}
    stored = stored_files(storage, folders)
    names = {f.name for f in stored}
    report = Reconciliation(named=len(named), stored=len(stored))
    report.orphans = [f for f in stored if f.name not in named]
    report.missing = [
        MissingFile(column, pk, name)
        for name, owners in sorted(named.items())
        if name not in names and not storage.exists(name)
        for column, pk in owners
    ]
    if remove_orphans:
        for orphan in report.orphans:
            if now - orphan.modified >= min_age:
                storage.delete(orphan.name)
                report.removed.append(orphan.name)
            else:
                report.kept_young.append(orphan.name)
    return report
