"""A damaged archive is refused naming what is at fault, and leaves nothing (docs/archives.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bakeoff.models import AuditEntry, Bakeoff
from leaderboard import archive
from leaderboard.archive.format import manifest_bytes, manifest_checksum
from tests.module_world import built_once, captured_on_commit, copy_media

from .archive_fixtures import erase, lived_bakeoff, organisers_archive, refusal

pytestmark = pytest.mark.django_db


def resealed(archived: dict[str, bytes], **changes: object) -> dict[str, bytes]:
    """The archive with its manifest changed and its checksum made right again."""
    manifest = json.loads(archived[archive.MANIFEST]) | changes
    manifest["checksum"] = manifest_checksum(manifest)
    return archived | {archive.MANIFEST: manifest_bytes(manifest)}


def exported_and_erased() -> dict[str, bytes]:
    lived = lived_bakeoff(captured_on_commit)
    files = organisers_archive(lived)
    erase(lived)
    return files


@pytest.fixture(scope="module")
def erased_once(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[dict[str, bytes], Path]]:
    """The lived bakeoff's archive, and the database and files with the bakeoff erased, made once:
    every import below runs in its test's transaction, on the test's copy of the files."""
    media = tmp_path_factory.mktemp("erased") / "media"
    for files in built_once(django_db_blocker, media, exported_and_erased):
        yield files, media


@pytest.fixture
def erased(
    erased_once: tuple[dict[str, bytes], Path], db: None, media_root: Path
) -> dict[str, bytes]:
    files, media = erased_once
    copy_media(media, media_root)
    return dict(files)


def stored(media: Path) -> set[Path]:
    return {p for p in media.rglob("*") if p.is_file()}


def nothing_left(media: Path, before: set[Path]) -> None:
    assert not Bakeoff.objects.exists()
    assert not AuditEntry.objects.exists()
    assert stored(media) == before


def test_a_changed_file_is_refused_and_nothing_is_made(
    erased: dict[str, bytes], media_root: Path
) -> None:
    name = next(n for n in erased if n.startswith("files/runs/"))
    before = stored(media_root)
    detail = refusal(erased | {name: erased[name] + b"x\n"})
    assert (
        detail
        == f"{name}: its checksum differs from the manifest's: the file was changed or damaged"
    )
    nothing_left(media_root, before)


def test_a_missing_file_is_refused(erased: dict[str, bytes], media_root: Path) -> None:
    name = next(n for n in erased if n.startswith("files/gold/"))
    before = stored(media_root)
    detail = refusal({k: v for k, v in erased.items() if k != name})
    assert detail == f"{name}: listed in the manifest but not in the archive"
    nothing_left(media_root, before)


def test_a_file_not_in_the_manifest_is_refused(erased: dict[str, bytes]) -> None:
    detail = refusal(erased | {"files/runs/extra.txt": b"x"})
    assert detail == "files/runs/extra.txt: in the archive but not in its manifest"


def test_a_changed_manifest_is_refused(erased: dict[str, bytes]) -> None:
    manifest = json.loads(erased[archive.MANIFEST]) | {"made_at": "2020-01-01T00:00:00+00:00"}
    detail = refusal(erased | {archive.MANIFEST: manifest_bytes(manifest)})
    assert detail.startswith("checksum: the manifest does not match its checksum")


def test_a_newer_version_is_refused(erased: dict[str, bytes]) -> None:
    detail = refusal(resealed(erased, version=2))
    assert detail == "version: version 2 is newer than this platform reads (1)"


def test_a_public_archive_is_not_imported(erased: dict[str, bytes]) -> None:
    assert refusal(resealed(erased, variant="public")).startswith("variant: a public archive")


def test_rows_of_a_newer_schema_are_refused(erased: dict[str, bytes]) -> None:
    manifest = json.loads(erased[archive.MANIFEST])
    migrations = manifest["migrations"] | {
        "bakeoff": [*manifest["migrations"]["bakeoff"], "9999_x"]
    }
    detail = refusal(resealed(erased, migrations=migrations))
    assert detail.startswith("migrations.bakeoff: written by a newer release: migration 9999_x")


def test_a_row_the_database_refuses_leaves_nothing(
    erased: dict[str, bytes], media_root: Path
) -> None:
    """Every check passes, the rows are written, one breaks a constraint at the end: the files
    stored on the way are removed and the transaction leaves no row."""
    name = "records/bakeoff.Registration.jsonl"
    rows = erased[name].decode().splitlines()
    broken = json.loads(rows[0])
    broken["fields"]["track"] = 999999  # a track that does not exist
    changed = "\n".join([json.dumps(broken), *rows[1:]]) + "\n"
    files = erased | {name: changed.encode()}
    manifest = json.loads(files[archive.MANIFEST])
    manifest["files"][name] = {
        "size": len(changed.encode()),
        "sha256": archive.format.sha256(changed.encode()),
    }
    before = stored(media_root)
    detail = refusal(resealed(files, files=manifest["files"]))
    assert detail.startswith("records: the database refused a row")
    nothing_left(media_root, before)
