"""``manage.py backup`` and ``restore`` (docs/operations.md): a backup restored into a new
database and storage gives the same platform, row for row, file for file, export for export; an
upload during the backup is wholly in it or wholly absent; a damaged backup is refused."""

from __future__ import annotations

import io
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from pytest_django import DjangoDbBlocker

from bakeoff import services
from bakeoff.models import Submission, SubmissionPhase, Track
from bakeoff.services.backup import (
    FORMAT_VERSION,
    BackupError,
    check_backup,
    do_backup,
    field_label,
    file_fields,
    manifest_checksum,
    sha256_of,
)
from bakeoff.services.restore import do_restore
from tests.factories import WORKED_RUN, rival
from tests.operations.drill import (
    Built,
    build_published_bakeoff,
    compare,
    fingerprint,
    fresh_platform,
    manage,
    restored_fingerprint,
)

# Also in the SQLite pass of make test: the embedded mode backs up and restores too.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.embedded]


@pytest.fixture
def built(tmp_path: Path) -> Built:
    return build_published_bakeoff(tmp_path)


@dataclass(frozen=True)
class Taken:
    built: Built
    backup: Path  # never changed: a test tampers with its own copy (backed_up)


@pytest.fixture(scope="module")
def taken(
    django_db_setup: None,
    django_db_blocker: DjangoDbBlocker,
    tmp_path_factory: pytest.TempPathFactory,
) -> Taken:
    """The bakeoff built through the services and backed up once for the module (seconds each
    time on PostgreSQL): the tests of what a backup refuses or reports start from it. The tests
    of what a restore gives back build their own (``built``), so that a row a backup forgets
    cannot be missing from both sides of their comparison."""
    from django.core.cache import cache

    from config.celery import app

    directory = tmp_path_factory.mktemp("taken")
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with (
            django_db_blocker.unblock(),
            override_settings(
                MEDIA_ROOT=directory / "media",
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
            ),
        ):
            try:
                built = build_published_bakeoff(directory)
                do_backup(directory / "backup")
            finally:
                # As a transactional test's teardown does: the module's tests start empty.
                call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
                cache.clear()
    finally:
        app.conf.task_always_eager = eager
    return Taken(built, directory / "backup")


# A test of a backup directory alone writes nothing here: it rolls back rather than empty every
# table (a second each on PostgreSQL), still in each pass of make test.
ONLY_THE_BACKUP = pytest.mark.django_db


@pytest.fixture
def backed_up(taken: Taken, tmp_path: Path) -> Path:
    """A copy of the module's backup, this test's to tamper with."""
    return Path(shutil.copytree(taken.backup, tmp_path / "backup"))


@pytest.fixture
def restored(taken: Taken) -> Built:
    """The platform the module's backup holds, in this test's database and media root."""
    do_restore(taken.backup)
    return taken.built


def backup(directory: Path) -> str:
    out = io.StringIO()
    call_command("backup", str(directory), stdout=out)
    return out.getvalue()


def test_every_file_field_of_every_model_is_found() -> None:
    found = {field_label(model, field) for model, field in file_fields()}
    assert {
        "bakeoff.Corpus.training_text",
        "bakeoff.Corpus.training_words",
        "bakeoff.Corpus.test_text",
        "bakeoff.Corpus.domain_labels",
        "bakeoff.DevelopmentSet.text",
        "bakeoff.DevelopmentSet.gold",
        "bakeoff.GoldVersion.file",
        "bakeoff.Submission.file",
        "bakeoff.SystemPaper.file",
    } <= found


def test_a_restored_platform_is_the_one_backed_up(built: Built, tmp_path: Path) -> None:
    before = fingerprint()
    printed = backup(tmp_path / "backup")
    assert "files" in printed
    with fresh_platform(tmp_path / "restored") as env:
        done = manage(env, "restore", str(tmp_path / "backup"))
        assert done.returncode == 0, done.stderr
        assert "bakeoff.Submission:" in done.stdout
        after = restored_fingerprint(env, tmp_path / "restored.json")
        # The sequences go on from the restored keys: the next row gets the next number.
        created = manage(
            env,
            "shell",
            "-c",
            "from django.contrib.auth.models import User; "
            "print(User.objects.create_user('after-restore').pk)",
        )
        assert created.returncode == 0, created.stderr
    differences = compare(before, after)
    assert differences.none, differences
    last = User.objects.order_by("pk").last()
    assert last is not None and int(created.stdout.split()[-1]) == last.pk + 1
    # It compared something: both results versions' exports, a paper, runs of every phase.
    assert any("/results/v2/" in path and path.endswith(".csv") for path in before["exports"])
    assert any(path.endswith("results.json") for path in before["exports"])
    assert all(value.startswith("200 ") for value in before["exports"].values())
    assert differences.exports_compared >= 20
    assert differences.files_compared >= 10
    assert "missing" not in before["files"].values()
    phases = {row for row in Submission.objects.values_list("phase", flat=True)}
    assert phases == {"development", "test", "post_bakeoff"}


def test_the_manifest_names_every_part_with_its_checksum(built: Built, tmp_path: Path) -> None:
    do_backup(tmp_path / "backup")
    manifest = json.loads((tmp_path / "backup" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format_version"] == FORMAT_VERSION
    assert manifest["checksum"] == manifest_checksum(manifest)
    assert manifest["database"]["engine"] in {"sqlite", "postgresql"}
    assert manifest["database"]["sha256"] == sha256_of(tmp_path / "backup" / "database.jsonl.gz")
    assert "0001_initial" in manifest["migrations"]["bakeoff"]
    assert manifest["database"]["rows"]["bakeoff.Submission"] == Submission.objects.count()
    assert manifest["missing_files"] == []
    for entry in manifest["files"]:
        with default_storage.open(entry["name"], "rb") as stored:
            data = stored.read()
        assert (tmp_path / "backup" / "files" / entry["name"]).read_bytes() == data
        assert entry["size"] == len(data)
    run = Submission.objects.exclude(file="").first()
    assert run is not None
    assert run.file.name in {entry["name"] for entry in manifest["files"]}


def test_an_upload_during_the_backup_is_wholly_absent(built: Built, tmp_path: Path) -> None:
    before = fingerprint()
    closed = Track.objects.get(pk=built.track_pk)
    late: list[Submission] = []

    def upload_meanwhile() -> None:
        # After the snapshot, before the files are copied: a run arrives, row and file.
        late.append(_post_bakeoff_run(closed))

    do_backup(tmp_path / "backup", after_snapshot=upload_meanwhile)
    (arrived,) = late
    name = arrived.file.name
    assert name and default_storage.exists(name)
    assert not (tmp_path / "backup" / "files" / name).exists()
    with fresh_platform(tmp_path / "restored", migrated=True) as env:
        done = manage(env, "restore", str(tmp_path / "backup"))
        assert done.returncode == 0, done.stderr
        after = restored_fingerprint(env, tmp_path / "restored.json")
    # The restored platform is the one before the upload: neither its row nor its file.
    differences = compare(before, after)
    assert differences.none, differences
    assert name not in after["files"]


def _post_bakeoff_run(closed: Track) -> Submission:
    user, _ = rival(closed.corpus.bakeoff, closed, name="Meanwhile")
    return services.submit_run(
        user, closed, WORKED_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
    )


def test_an_upload_before_the_snapshot_is_wholly_in_it(restored: Built, tmp_path: Path) -> None:
    closed = Track.objects.get(pk=restored.track_pk)
    arrived = _post_bakeoff_run(closed)
    do_backup(tmp_path / "backup")
    manifest = check_backup(tmp_path / "backup")
    assert arrived.file.name in {entry["name"] for entry in manifest["files"]}


def test_a_row_whose_file_is_missing_is_reported(restored: Built, tmp_path: Path) -> None:
    run = Submission.objects.exclude(file="").order_by("pk").last()
    assert run is not None and run.file.name
    default_storage.delete(run.file.name)
    with pytest.raises(CommandError, match="1 stored files named by the database are missing"):
        backup(tmp_path / "backup")
    manifest = check_backup(tmp_path / "backup")
    assert manifest["missing_files"] == [
        {"name": run.file.name, "fields": ["bakeoff.Submission.file"]}
    ]


def test_restore_refuses_a_tampered_file_and_names_it(
    restored: Built, backed_up: Path, tmp_path: Path
) -> None:
    run = Submission.objects.exclude(file="").order_by("pk").first()
    assert run is not None and run.file.name
    name = run.file.name
    copied = tmp_path / "backup" / "files" / name
    data = copied.read_bytes()
    copied.write_bytes(bytes([data[0] ^ 1]) + data[1:])  # one bit, the size unchanged
    refused = re.escape(f"{name} does not match its checksum")
    with pytest.raises(BackupError, match=refused):
        check_backup(tmp_path / "backup")
    # Refused before anything is written: this database is not empty, and that is not what
    # restore says.
    with pytest.raises(BackupError, match="does not match its checksum"):
        do_restore(tmp_path / "backup")
    with fresh_platform(tmp_path / "restored") as env:
        done = manage(env, "restore", str(tmp_path / "backup"))
        assert done.returncode != 0
        assert name in done.stderr and "does not match its checksum" in done.stderr
        assert not (tmp_path / "restored" / "media").exists()


@ONLY_THE_BACKUP
def test_restore_refuses_a_tampered_database_dump(backed_up: Path, tmp_path: Path) -> None:
    with (tmp_path / "backup" / "database.jsonl.gz").open("ab") as dump:
        dump.write(b"\0")
    with pytest.raises(BackupError, match=r"database\.jsonl\.gz does not match its checksum"):
        check_backup(tmp_path / "backup")


@ONLY_THE_BACKUP
def test_restore_refuses_an_unknown_format_or_an_edited_manifest(
    backed_up: Path, tmp_path: Path
) -> None:
    path = tmp_path / "backup" / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    edited = {**manifest, "missing_files": [{"name": "x", "fields": []}]}
    path.write_text(json.dumps(edited), encoding="utf-8")
    with pytest.raises(BackupError, match="checksum does not match its contents"):
        check_backup(tmp_path / "backup")
    future = {**manifest, "format_version": FORMAT_VERSION + 1}
    future["checksum"] = manifest_checksum(future)
    path.write_text(json.dumps(future), encoding="utf-8")
    with pytest.raises(BackupError, match="format version 2 is unknown"):
        check_backup(tmp_path / "backup")


def test_restore_refuses_a_database_that_is_not_empty(
    restored: Built, backed_up: Path, tmp_path: Path
) -> None:
    count = Submission.objects.count()
    with pytest.raises(BackupError, match="The database is not empty"):
        do_restore(tmp_path / "backup")
    assert Submission.objects.count() == count


@ONLY_THE_BACKUP
def test_restore_refuses_a_storage_that_is_not_empty(backed_up: Path, tmp_path: Path) -> None:
    with fresh_platform(tmp_path / "restored") as env:
        (tmp_path / "restored" / "media" / "runs").mkdir(parents=True)
        (tmp_path / "restored" / "media" / "runs" / "left-over.txt").write_text("x")
        done = manage(env, "restore", str(tmp_path / "backup"))
    assert done.returncode != 0
    assert "The file storage is not empty (it holds runs/left-over.txt)" in done.stderr


def test_a_backup_goes_into_a_new_directory(restored: Built, tmp_path: Path) -> None:
    (tmp_path / "backup").mkdir()
    (tmp_path / "backup" / "old").write_text("x")
    with pytest.raises(CommandError, match="is not empty"):
        backup(tmp_path / "backup")


def test_an_upload_committed_during_the_snapshot_is_absent_from_it(
    restored: Built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the rows and the list of their files, another connection commits a run: the
    snapshot sees neither (PostgreSQL: REPEATABLE READ; SQLite makes the writer wait instead)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("on SQLite a writer waits for the snapshot's lock: nothing commits inside it")
    import threading

    from bakeoff.services import backup as backup_service

    closed = Track.objects.get(pk=restored.track_pk)
    submissions = Submission.objects.count()
    arrived: list[Submission] = []
    named_files = backup_service._named_files

    def commit_a_run_then_name_files() -> dict[str, list[tuple[object, str]]]:
        def upload() -> None:
            from django.db import connection as own

            try:
                arrived.append(_post_bakeoff_run(closed))
            finally:
                own.close()

        thread = threading.Thread(target=upload)
        thread.start()
        thread.join(timeout=60)
        assert arrived, "the upload did not commit while the snapshot was open"
        return named_files()  # type: ignore[return-value]

    monkeypatch.setattr(backup_service, "_named_files", commit_a_run_then_name_files)
    report = do_backup(tmp_path / "backup")
    (run,) = arrived
    assert Submission.objects.filter(pk=run.pk).exists() and default_storage.exists(
        str(run.file.name)
    )
    assert report.rows["bakeoff.Submission"] == submissions
    assert run.file.name not in {stored.name for stored in report.files}
    assert report.missing == ()


def test_restore_refuses_a_backup_of_another_schema(
    restored: Built, backed_up: Path, tmp_path: Path
) -> None:
    path = tmp_path / "backup" / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["migrations"]["bakeoff"].append("9999_from_a_later_release")
    manifest["checksum"] = manifest_checksum(manifest)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    count = Submission.objects.count()
    with pytest.raises(BackupError, match=r"bakeoff\.9999_from_a_later_release \(unknown"):
        do_restore(tmp_path / "backup")
    assert Submission.objects.count() == count
