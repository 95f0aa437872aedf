"""A backup of a platform whose files are in S3-compatible storage (moto's server) restores into
a new database and a new bucket: every row, every file and every export the same, nothing
written to the local disk (docs/operations.md)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from bakeoff.services.backup import check_backup, do_backup
from tests.operations.drill import (
    build_published_bakeoff,
    compare,
    fingerprint,
    fresh_platform,
    manage,
    restored_fingerprint,
)

from .conftest import ObjectStorage

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_a_backup_of_files_in_s3_restores_into_a_new_bucket(
    media: ObjectStorage,
    web_media: Path,
    synchronous_tasks: None,
    fresh_cache: None,
    tmp_path: Path,
) -> None:
    build_published_bakeoff(tmp_path)
    before = fingerprint()
    do_backup(tmp_path / "backup")
    names = sorted(entry["name"] for entry in check_backup(tmp_path / "backup")["files"])
    assert set(names) <= set(media.keys()) and len(names) >= 10
    assert not any(path.is_file() for path in web_media.rglob("*"))

    restored = ObjectStorage(media.endpoint, f"bakeoff-restored-{uuid.uuid4().hex[:8]}")
    assert restored.create_bucket()
    with fresh_platform(tmp_path / "restored", restored.environment()) as env:
        done = manage(env, "restore", str(tmp_path / "backup"))
        assert done.returncode == 0, done.stderr
        after = restored_fingerprint(env, tmp_path / "restored.json")
    differences = compare(before, after)
    assert differences.none, differences
    assert differences.files_compared == len(names)
    assert sorted(restored.keys()) == names
    assert not (tmp_path / "restored" / "media").exists()
