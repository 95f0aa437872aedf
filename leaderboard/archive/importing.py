"""Importing an organisers' archive (docs/archives.md): the bakeoff recreated row for row, its
files stored again, in a database that does not hold it.

Everything is checked before anything is written: the manifest (format, version, variant, its
own checksum), every file against the manifest's checksum (a file missing, changed or not
listed is refused), the schema the rows were written with, every row (its model, its fields),
and that none of the rows' keys is taken here. The rows are then written in one transaction and
the files stored on the way are removed if anything fails: a refused archive leaves nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError, DeserializedObject
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils.translation import gettext_lazy as _

from bakeoff import audit, clock
from bakeoff.errors import interpolate
from bakeoff.file_sets import FileSet, MemoryFiles, ZipFiles, open_folder_or_zip
from bakeoff.models import AuditEntry, Bakeoff
from bakeoff.services import uploads

from . import records
from .format import (
    ACCOUNTS,
    FILES,
    FORMAT,
    KNOWN_VERSIONS,
    MANIFEST,
    ORGANISERS,
    RECORDS,
    VERSION,
    ArchiveError,
    manifest_checksum,
    sha256,
)

ArchiveSource = FileSet
MemoryArchive = MemoryFiles


def open_archive(path: Path) -> ArchiveSource:
    """An archive on disk: a folder, or a zip file."""
    return open_folder_or_zip(
        path, ZipFiles, lambda: ArchiveError(str(path), _("not a folder or a zip file"))
    )


@dataclass
class ImportReport:
    bakeoff: Bakeoff
    rows: dict[str, int] = field(default_factory=dict)
    files: int = 0
    accounts_created: int = 0
    accounts_reused: int = 0


# -- checks: nothing written ----------------------------------------------------------------------


def read_manifest(source: ArchiveSource) -> dict[str, Any]:
    if MANIFEST not in source.names():
        raise ArchiveError(MANIFEST, _("not in the archive: is this an archive of a bakeoff?"))
    try:
        manifest = json.loads(source.read(MANIFEST).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ArchiveError(
            MANIFEST, interpolate(_("not JSON (%(error)s)"), error=str(error))
        ) from None
    if not isinstance(manifest, dict):
        raise ArchiveError(MANIFEST, _("not a JSON object"))
    if manifest.get("format") != FORMAT:
        raise ArchiveError(
            "format", interpolate(_("not %(format)s: not an archive of a bakeoff"), format=FORMAT)
        )
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ArchiveError("version", _("missing, or not a whole number"))
    if version > VERSION:
        raise ArchiveError(
            "version",
            interpolate(
                _("version %(version)s is newer than this platform reads (%(newest)s)"),
                version=version,
                newest=VERSION,
            ),
        )
    if version not in KNOWN_VERSIONS:
        raise ArchiveError(
            "version",
            interpolate(_("%(version)s is not a version of this format"), version=version),
        )
    if manifest.get("checksum") != manifest_checksum(manifest):
        raise ArchiveError(
            "checksum",
            _("the manifest does not match its checksum: it was changed after it was written"),
        )
    if manifest.get("variant") != ORGANISERS:
        raise ArchiveError(
            "variant",
            _(
                "a public archive holds no runs and no accounts: it is a release to read, not "
                "a bakeoff to import (import the organisers' archive)"
            ),
        )
    return manifest


def read_files(source: ArchiveSource, manifest: dict[str, Any]) -> dict[str, bytes]:
    """Every listed file, checked against its checksum; a file not listed is refused too."""
    listed = manifest.get("files")
    if not isinstance(listed, dict):
        raise ArchiveError("files", _("missing, or not an object"))
    present = source.names()
    for name in sorted(present - {MANIFEST}):
        if name not in listed:
            raise ArchiveError(name, _("in the archive but not in its manifest"))
    files: dict[str, bytes] = {}
    for name, entry in sorted(listed.items()):
        if name not in present:
            raise ArchiveError(name, _("listed in the manifest but not in the archive"))
        data = source.read(name)
        if not isinstance(entry, dict) or entry.get("sha256") != sha256(data):
            raise ArchiveError(
                name, _("its checksum differs from the manifest's: the file was changed or damaged")
            )
        files[name] = data
    return files


def check_schema(manifest: dict[str, Any]) -> None:
    """The rows were written by a schema this platform has: every migration the archive's
    database had is applied here (a later release reads older rows: new fields take their
    defaults)."""
    state = manifest.get("migrations")
    if not isinstance(state, dict):
        raise ArchiveError("migrations", _("missing, or not an object"))
    applied = MigrationRecorder(connections[DEFAULT_DB_ALIAS]).applied_migrations()
    for app_label, names in sorted(state.items()):
        for name in names if isinstance(names, list) else []:
            if (app_label, name) not in applied:
                raise ArchiveError(
                    f"migrations.{app_label}",
                    interpolate(
                        _(
                            "written by a newer release: migration %(name)s is not applied "
                            "here; upgrade this platform first"
                        ),
                        name=name,
                    ),
                )


def _label(name: str) -> str:
    return PurePosixPath(name).name.removesuffix(".jsonl")


def read_rows(files: dict[str, bytes]) -> dict[str, list[DeserializedObject]]:
    """Every row of ``records/``, by model label, as unsaved objects."""
    found: dict[str, list[DeserializedObject]] = {}
    for name in sorted(files):
        if not name.startswith(f"{RECORDS}/"):
            continue
        label = _label(name)
        try:
            apps.get_model(label)
        except (LookupError, ValueError):
            raise ArchiveError(
                name, interpolate(_("%(model)s is not a model of this platform"), model=label)
            ) from None
        try:
            objects = list(serializers.deserialize("jsonl", files[name].decode("utf-8")))
        except (DeserializationError, UnicodeDecodeError) as error:
            raise ArchiveError(name, str(error).splitlines()[0]) from None
        for obj in objects:
            if obj.object._meta.label != label:
                raise ArchiveError(
                    name,
                    interpolate(
                        _("a row of %(model)s among the rows of another model"), model=label
                    ),
                )
        found[label] = objects
    if "bakeoff.Bakeoff" not in found or len(found["bakeoff.Bakeoff"]) != 1:
        raise ArchiveError(
            f"{RECORDS}/bakeoff.Bakeoff.jsonl", _("holds no bakeoff, or more than one")
        )
    return found


def read_accounts(files: dict[str, bytes]) -> list[dict[str, Any]]:
    if ACCOUNTS not in files:
        raise ArchiveError(ACCOUNTS, _("not in the archive"))
    try:
        accounts = records.read_jsonl(files[ACCOUNTS])
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ArchiveError(ACCOUNTS, str(error)) from None
    for number, account in enumerate(accounts):
        if not isinstance(account, dict) or not isinstance(account.get("pk"), int):
            raise ArchiveError(f"{ACCOUNTS}[{number}]", _("not an account"))
        for key in records.ACCOUNT_FIELDS:
            if not isinstance(account.get(key), str):
                raise ArchiveError(f"{ACCOUNTS}[{number}].{key}", _("missing, or not text"))
    return accounts


def the_bakeoff(rows: dict[str, list[DeserializedObject]]) -> Bakeoff:
    bakeoff = rows["bakeoff.Bakeoff"][0].object
    assert isinstance(bakeoff, Bakeoff)
    return bakeoff


def check_free(rows: dict[str, list[DeserializedObject]], files: dict[str, bytes]) -> None:
    """None of the rows' keys is taken here, nor the bakeoff's short name; every file a row
    names is in the archive, and every account a row names is in ``accounts.jsonl``."""
    slug = the_bakeoff(rows).slug
    if Bakeoff.objects.filter(slug=slug).exists():
        raise ArchiveError(
            "bakeoff.slug",
            interpolate(_("a bakeoff %(slug)s exists here already"), slug=slug),
        )
    for label, objects in rows.items():
        model = apps.get_model(label)
        path = f"{RECORDS}/{label}.jsonl"
        pks = [] if label in records.NEW_KEYS else [obj.object.pk for obj in objects]
        taken = model._base_manager.filter(pk__in=pks).order_by("pk").values_list("pk", flat=True)
        first = taken.first()
        if first is not None:
            raise ArchiveError(
                path,
                interpolate(
                    _(
                        "this database already holds %(model)s %(key)s: import into a database "
                        "that never held this bakeoff"
                    ),
                    model=label,
                    key=first,
                ),
            )
        for file_field in records.file_fields(model):
            for obj in objects:
                name = getattr(obj.object, file_field.name).name
                if name and f"{FILES}/{name}" not in files:
                    raise ArchiveError(
                        path,
                        interpolate(
                            _("%(model)s %(key)s names the file %(name)s, not in the archive"),
                            model=label,
                            key=obj.object.pk,
                            name=name,
                        ),
                    )


# -- writing ---------------------------------------------------------------------------------


def _accounts(accounts: list[dict[str, Any]], report: ImportReport) -> dict[int, int]:
    """The archive's account keys mapped to accounts here: the account with the same username
    and e-mail address, else a new one (without a password: its owner sets one by resetting it),
    under a free username."""
    user = records.user_model()
    manager: Any = user._default_manager
    mapping: dict[int, int] = {}
    for account in accounts:
        same = manager.filter(username=account["username"]).first()
        if same is not None and same.email.lower() == account["email"].lower():
            mapping[account["pk"]] = same.pk
            report.accounts_reused += 1
            continue
        username = account["username"]
        number = 1
        while manager.filter(username=username).exists():
            number += 1
            username = f"{account['username']}-{number}"
        created = user(
            username=username,
            email=account["email"],
            first_name=account["first_name"],
            last_name=account["last_name"],
        )
        created.set_unusable_password()  # type: ignore[attr-defined]
        created.save()
        mapping[account["pk"]] = created.pk
        report.accounts_created += 1
    return mapping


def _write(
    rows: dict[str, list[DeserializedObject]],
    files: dict[str, bytes],
    accounts: dict[int, int],
    report: ImportReport,
) -> None:
    stored: dict[str, str] = {}  # a file named by several rows is stored once
    # A bakeoff deleted here keeps its audit trail; imported again, the entries it has are not
    # written twice.
    kept = set(
        AuditEntry.objects.filter(bakeoff=the_bakeoff(rows).pk).values_list(
            "at", "action", "subject"
        )
    )
    written: list[type[models.Model]] = []
    for label in records.insertion_order(rows):
        model = apps.get_model(label)
        path = f"{RECORDS}/{label}.jsonl"
        for deserialized in rows[label]:
            obj = deserialized.object
            if isinstance(obj, AuditEntry) and (obj.at, obj.action, obj.subject) in kept:
                continue
            for user_field in records.user_fields(model):
                old = getattr(obj, user_field.attname)
                if old is None:
                    continue
                if old not in accounts:
                    raise ArchiveError(
                        path,
                        interpolate(
                            _("%(model)s %(key)s names account %(account)s, not in %(accounts)s"),
                            model=label,
                            key=obj.pk,
                            account=old,
                            accounts=ACCOUNTS,
                        ),
                    )
                setattr(obj, user_field.attname, accounts[old])
            for file_field in records.file_fields(model):
                field_file = getattr(obj, file_field.name)
                name = field_file.name
                if not name:
                    continue
                if name not in stored:
                    uploads.store(field_file, PurePosixPath(name).name, files[f"{FILES}/{name}"])
                    stored[name] = field_file.name
                    report.files += 1
                field_file.name = stored[name]
            if label in records.NEW_KEYS:
                obj.pk = None  # in the order of the old keys: the trail reads in that order
            # raw: as loaddata saves, the values as they are (a creation time stays), no signal
            # acted upon; force_insert: the row is new here (check_free).
            models.Model.save_base(obj, raw=True, force_insert=True)
        report.rows[label] = len(rows[label])
        written.append(model)
    connection = connections[DEFAULT_DB_ALIAS]
    # The foreign keys are checked at commit; checked now, a row that names nothing here is
    # refused inside the block that removes the stored files.
    connection.check_constraints(table_names=[m._meta.db_table for m in written])
    with connection.cursor() as cursor:  # the next key after the rows' own (PostgreSQL)
        for statement in connection.ops.sequence_reset_sql(no_style(), written):
            cursor.execute(statement)


def import_archive(source: ArchiveSource, *, now: datetime | None = None) -> ImportReport:
    """Recreate the archive's bakeoff, or refuse the archive with an ArchiveError naming the
    file or key at fault, leaving nothing."""
    now = now or clock.now()
    manifest = read_manifest(source)
    files = read_files(source, manifest)
    check_schema(manifest)
    rows = read_rows(files)
    accounts = read_accounts(files)
    check_free(rows, files)
    bakeoff = the_bakeoff(rows)
    report = ImportReport(bakeoff)
    try:
        with uploads.files_removed_on_failure(), transaction.atomic():
            mapping = _accounts(accounts, report)
            _write(rows, files, mapping, report)
            audit.record(
                bakeoff,
                audit.BAKEOFF_IMPORTED,
                bakeoff.name,
                now=now,
                archive_checksum=manifest["checksum"],
                archive_version=manifest["version"],
                archive_made_at=manifest.get("made_at"),
            )
    except DatabaseError as error:
        raise ArchiveError(
            RECORDS,
            interpolate(
                _("the database refused a row: %(error)s"), error=str(error).splitlines()[0]
            ),
        ) from None
    return report
