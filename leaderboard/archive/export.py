"""Writing an archive (docs/archives.md): the organisers' variant (every row of the bakeoff,
the accounts they name and every stored file), or the public one (the definition, every gold
version and the published tables, after publication)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.recorder import MigrationRecorder

import scoring
from bakeoff import bundles, file_sets
from bakeoff.models import Bakeoff, GoldVersion
from bakeoff.services import uploads

from .. import versions, whole
from . import records
from .format import (
    ACCOUNTS,
    BUNDLE,
    FILES,
    FORMAT,
    MANIFEST,
    ORGANISERS,
    PUBLIC,
    RECORDS,
    VERSION,
    canonical,
    manifest_bytes,
    manifest_checksum,
    sha256,
)

Files = dict[str, bytes]


def migration_state() -> dict[str, list[str]]:
    """The migrations applied to the database the rows come from, by app."""
    state: dict[str, list[str]] = {}
    applied = MigrationRecorder(connections[DEFAULT_DB_ALIAS]).applied_migrations()
    for app_label, name in sorted(applied):
        state.setdefault(app_label, []).append(name)
    return state


def _bundle(bakeoff: Bakeoff, files: Files) -> None:
    manifest, bundle_files = bundles.bundle_of(bakeoff)
    files[f"{BUNDLE}/{bundles.MANIFEST}"] = bundles.manifest_bytes(manifest)
    for name, data in bundle_files.items():
        files[f"{BUNDLE}/{name}"] = data


def _organisers(bakeoff: Bakeoff, files: Files) -> dict[str, int]:
    rows = records.rows_of(bakeoff)
    counts: dict[str, int] = {}
    for label, objects in rows.items():
        files[f"{RECORDS}/{label}.jsonl"] = records.jsonl(objects)
        counts[label] = len(objects)
        for field in records.file_fields(apps.get_model(label)):
            for obj in objects:
                stored = getattr(obj, field.name)
                if stored and f"{FILES}/{stored.name}" not in files:
                    files[f"{FILES}/{stored.name}"] = uploads.read_stored(stored)
    accounts = records.accounts_of(rows)
    files[ACCOUNTS] = b"".join(canonical(account) + b"\n" for account in accounts)
    counts["accounts"] = len(accounts)
    return counts


def _public(bakeoff: Bakeoff, files: Files, now: datetime) -> dict[str, int]:
    # made by the organisers, who decide to deposit it: every corpus's data, with its agreement
    files.update(whole.release_files(bakeoff, now=now, with_data=lambda corpus: True))
    golds = GoldVersion.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus")
    for gold in golds.order_by("corpus__abbreviation", "number"):
        files[f"gold/{gold.corpus.abbreviation}/v{gold.number}.txt"] = uploads.read_stored(
            gold.file
        )
    return {"gold_versions": golds.count()}


def archive_files(bakeoff: Bakeoff, *, public: bool = False, now: datetime) -> Files:
    """Every member of the archive by name, its manifest (``archive.json``) included. The public
    variant exists only once the results are published (``whole.check_published`` refuses it
    before)."""
    files: Files = {}
    if public:
        whole.check_published(bakeoff, now)
    _bundle(bakeoff, files)
    counts = _public(bakeoff, files, now) if public else _organisers(bakeoff, files)
    if not public and versions.newest(bakeoff, now) is not None:
        files.update(whole.tables(bakeoff, now=now))
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": PUBLIC if public else ORGANISERS,
        "bakeoff": {"slug": bakeoff.slug, "name": bakeoff.name},
        "made_at": now.isoformat(),
        "scorer_version": scoring.__version__,
        "migrations": migration_state() if not public else {},
        "counts": counts,
        "files": {
            name: {"size": len(data), "sha256": sha256(data)}
            for name, data in sorted(files.items())
        },
    }
    manifest["checksum"] = manifest_checksum(manifest)
    files[MANIFEST] = manifest_bytes(manifest)
    return files


def archive_zip(files: Files) -> bytes:
    """The archive as a zip, its manifest first; no dates of its own."""
    return file_sets.zip_bytes(files, first=MANIFEST)


def write_archive(files: Files, out: Path) -> None:
    """A zip when ``out`` ends in .zip, else a folder (new, or empty)."""
    file_sets.write_files(files, out, first=MANIFEST)
