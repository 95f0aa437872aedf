"""A bakeoff archived whole and imported again (docs/archives.md): the same rows, files and
exports byte for byte; the archived runs re-scored give the archived figures. The refusals of a
damaged archive are in test_archive_refusals.py, the downloads in test_archive_pages.py."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

import scoring
from bakeoff import audit
from bakeoff.models import AuditEntry, Bakeoff, Score, Site, SubmissionKind
from bakeoff.services import uploads
from bakeoff.services.gold_index import gold_index_for
from leaderboard import archive
from leaderboard.archive import records
from leaderboard.archive.format import manifest_checksum
from leaderboard.archive.importing import MemoryArchive
from tests.operations import drill

from .archive_fixtures import erase, lived_copy, lived_once, organisers_archive, refusal

pytestmark = pytest.mark.django_db
# Tables that the round trip changes by design: the import's own audit entry; the mails keep
# their rows but lose their bakeoff when it is deleted (the archive holds no mail).
CHANGED = {"bakeoff_auditentry", "notifications_mail"}


@pytest.fixture(scope="module")
def rated_once(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[int, Path]]:
    """With a committee and the balanced F of every run (a few seconds more), built once: each
    test erases, exports and imports inside its own transaction, on its own copy of the files."""
    yield from lived_once(
        django_db_blocker, tmp_path_factory.mktemp("rated") / "media", committee=True
    )


@pytest.fixture
def rated(rated_once: tuple[int, Path], db: None, media_root: Path) -> Bakeoff:
    return lived_copy(rated_once, media_root)


def fingerprint() -> dict[str, object]:
    every = drill.fingerprint()
    every["tables"] = {k: v for k, v in every["tables"].items() if k not in CHANGED}
    return every


def test_the_round_trip_gives_the_same_rows_files_and_exports(rated: Bakeoff) -> None:
    before = fingerprint()
    trail = list(AuditEntry.objects.filter(bakeoff=rated).values_list("action", flat=True))
    files = organisers_archive(rated)
    erase(rated)
    assert not Bakeoff.objects.exists()

    report = archive.import_archive(MemoryArchive(files))

    after = fingerprint()
    differences = drill.compare(before, after)
    assert differences.exports_compared >= 24, before["exports"]
    assert differences.none, differences
    assert report.accounts_reused == 3 and report.accounts_created == 0
    imported = Bakeoff.objects.get(slug="b2026")
    again = list(AuditEntry.objects.filter(bakeoff=imported).values_list("action", flat=True))
    assert again == [*trail, audit.BAKEOFF_IMPORTED]


def test_a_bakeoff_deleted_here_comes_back_with_its_trail_once(rated: Bakeoff) -> None:
    trail = list(AuditEntry.objects.filter(bakeoff=rated).values_list("action", "at"))
    files = organisers_archive(rated)
    erase(rated, trail=False)
    archive.import_archive(MemoryArchive(files))
    imported = Bakeoff.objects.get(slug="b2026")
    again = list(AuditEntry.objects.filter(bakeoff=imported).values_list("action", "at"))
    assert again[:-1] == trail and again[-1][0] == audit.BAKEOFF_IMPORTED


def test_the_archived_runs_rescored_give_the_archived_figures(rated: Bakeoff) -> None:
    files = organisers_archive(rated)
    erase(rated)
    archive.import_archive(MemoryArchive(files))
    scores = Score.objects.filter(submission__kind=SubmissionKind.RUN, metric="word")
    scores = scores.select_related("submission", "gold_version").order_by("pk")
    # two official runs scored with both gold versions, and the post-bakeoff run
    assert scores.count() == 5
    for score in scores:
        assert score.result["signature"]["scorer_version"] == scoring.__version__
        details = scoring.score_run_details(
            uploads.read_stored(score.submission.file),
            gold_index_for(score.gold_version),
            aligned_lines=score.gold_version.aligned_lines,
        )
        again = details.score.to_dict()
        for key, value in again.items():
            assert score.result[key] == value, (score, key)


def test_the_organisers_archive_has_every_part_and_every_address(rated: Bakeoff) -> None:
    files = organisers_archive(rated)
    manifest = json.loads(files[archive.MANIFEST])
    assert manifest["format"] == "bakeoff-archive" and manifest["version"] == 1
    assert manifest["checksum"] == manifest_checksum(manifest)
    for label in (
        "bakeoff.GoldVersion",
        "bakeoff.Site",
        "bakeoff.Registration",
        "bakeoff.Submission",
        "bakeoff.Score",
        "bakeoff.DevelopmentScore",
        "bakeoff.SystemPaper",
        "bakeoff.AuditEntry",
        "leaderboard.ResultsVersion",
        "leaderboard.PostBakeoffStanding",
        "psychometric.Committee",
        "psychometric.CommitteeMember",
    ):
        assert f"records/{label}.jsonl" in files, label
    assert b"pat@example.org" in files["accounts.jsonl"]
    assert "bundle/bundle.json" in files
    assert "tables/v2/pk-closed.csv" in files
    assert "A test system" in files["records/bakeoff.Submission.jsonl"].decode()
    assert '"metric": "balanced"' in files["records/bakeoff.Score.jsonl"].decode()
    assert all(b"password" not in data for name, data in files.items() if name.endswith("l"))


def test_the_public_archive_holds_no_personal_data(rated: Bakeoff) -> None:
    files = archive.archive_files(rated, public=True, now=timezone.now())
    assert json.loads(files[archive.MANIFEST])["variant"] == "public"
    assert {"gold/PK/v1.txt", "gold/PK/v2.txt", "test/PK.txt", "SCORER_VERSION"} <= set(files)
    assert "tables/all-tracks.csv" in files and "tables/v1/pk-closed.json" in files
    assert not any(name.startswith(("records/", "files/")) for name in files)
    every = b"".join(files.values())
    assert b"@example.org" not in every and b"olga" not in every and b"pat" not in every


def test_the_commands_make_and_import_a_zip(rated: Bakeoff, tmp_path: Path) -> None:
    out = tmp_path / "b2026.zip"
    call_command("export_bakeoff", "b2026", str(out), stdout=io.StringIO())
    with zipfile.ZipFile(out) as zipped:
        assert zipped.namelist()[0] == archive.MANIFEST
    with pytest.raises(CommandError, match=r"bakeoff\.slug: a bakeoff b2026 exists here already"):
        call_command("import_bakeoff", str(out))
    erase(rated)
    said = io.StringIO()
    call_command("import_bakeoff", str(out), stdout=said)
    assert "Imported b2026" in said.getvalue()
    assert Site.objects.count() == 2


def test_a_taken_key_is_refused(rated: Bakeoff) -> None:
    files = organisers_archive(rated)
    rated.slug = "renamed"
    rated.save()
    detail = refusal(files)
    assert detail.startswith("records/")
    assert "this database already holds" in detail


def test_the_rows_are_written_without_a_query_a_row(
    rated: Bakeoff, django_assert_max_num_queries: Any
) -> None:
    """The rows are read whole, a query per table: the collector reads only what a deletion
    needs, and each field it leaves out would be read again for each row as it is written."""
    rows = records.rows_of(bakeoff=rated)
    assert sum(len(objects) for objects in rows.values()) > 100
    with django_assert_max_num_queries(0):
        written = [records.jsonl(objects) for objects in rows.values()]
    assert all(written)
