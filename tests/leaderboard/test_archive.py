"""A bakeoff archived whole and imported again (docs/archives.md): the same rows, files and
exports byte for byte; the archived runs re-scored give the archived figures; a damaged archive
is refused naming what is at fault and leaves nothing."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

import scoring
from bakeoff import audit
from bakeoff.models import AuditEntry, Bakeoff, Score, Site, SubmissionKind
from bakeoff.services import uploads
from bakeoff.services.gold_index import gold_index_for
from leaderboard import archive
from leaderboard.archive.format import manifest_bytes, manifest_checksum
from leaderboard.archive.importing import MemoryArchive
from tests.hints import ClientFor, OnCommit
from tests.operations import drill

from .archive_fixtures import erase, lived_bakeoff, organisers_archive

pytestmark = pytest.mark.django_db
# Tables that the round trip changes by design: the import's own audit entry; the mails keep
# their rows but lose their bakeoff when it is deleted (the archive holds no mail).
CHANGED = {"bakeoff_auditentry", "notifications_mail"}


@pytest.fixture
def lived(on_commit: OnCommit) -> Bakeoff:
    return lived_bakeoff(on_commit)


@pytest.fixture
def rated(on_commit: OnCommit) -> Bakeoff:
    """With a committee and the balanced F of every run (a few seconds more)."""
    return lived_bakeoff(on_commit, committee=True)


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


def test_a_bakeoff_deleted_here_comes_back_with_its_trail_once(lived: Bakeoff) -> None:
    trail = list(AuditEntry.objects.filter(bakeoff=lived).values_list("action", "at"))
    files = organisers_archive(lived)
    erase(lived, trail=False)
    archive.import_archive(MemoryArchive(files))
    imported = Bakeoff.objects.get(slug="b2026")
    again = list(AuditEntry.objects.filter(bakeoff=imported).values_list("action", "at"))
    assert again[:-1] == trail and again[-1][0] == audit.BAKEOFF_IMPORTED


def test_the_archived_runs_rescored_give_the_archived_figures(lived: Bakeoff) -> None:
    files = organisers_archive(lived)
    erase(lived)
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


def test_the_public_archive_holds_no_personal_data(lived: Bakeoff) -> None:
    files = archive.archive_files(lived, public=True, now=timezone.now())
    assert json.loads(files[archive.MANIFEST])["variant"] == "public"
    assert {"gold/PK/v1.txt", "gold/PK/v2.txt", "test/PK.txt", "SCORER_VERSION"} <= set(files)
    assert "tables/all-tracks.csv" in files and "tables/v1/pk-closed.json" in files
    assert not any(name.startswith(("records/", "files/")) for name in files)
    every = b"".join(files.values())
    assert b"@example.org" not in every and b"olga" not in every and b"pat" not in every


def test_the_public_archive_waits_for_publication(bakeoff: Bakeoff) -> None:
    with pytest.raises(CommandError, match="not published"):
        call_command("export_bakeoff", bakeoff.slug, "/nonexistent/x.zip", "--public")


def test_the_commands_make_and_import_a_zip(lived: Bakeoff, tmp_path: Path) -> None:
    out = tmp_path / "b2026.zip"
    call_command("export_bakeoff", "b2026", str(out), stdout=io.StringIO())
    with zipfile.ZipFile(out) as zipped:
        assert zipped.namelist()[0] == archive.MANIFEST
    with pytest.raises(CommandError, match=r"bakeoff\.slug: a bakeoff b2026 exists here already"):
        call_command("import_bakeoff", str(out))
    erase(lived)
    said = io.StringIO()
    call_command("import_bakeoff", str(out), stdout=said)
    assert "Imported b2026" in said.getvalue()
    assert Site.objects.count() == 2


# -- refusals ---------------------------------------------------------------------------------


def resealed(archived: dict[str, bytes], **changes: object) -> dict[str, bytes]:
    """The archive with its manifest changed and its checksum made right again."""
    manifest = json.loads(archived[archive.MANIFEST]) | changes
    manifest["checksum"] = manifest_checksum(manifest)
    return archived | {archive.MANIFEST: manifest_bytes(manifest)}


def refusal(files: dict[str, bytes]) -> str:
    with pytest.raises(archive.ArchiveError) as refused:
        archive.import_archive(MemoryArchive(files))
    return refused.value.detail


@pytest.fixture
def erased(lived: Bakeoff, settings: object) -> dict[str, bytes]:
    files = organisers_archive(lived)
    erase(lived)
    return files


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


def test_a_taken_key_is_refused(lived: Bakeoff) -> None:
    files = organisers_archive(lived)
    lived.slug = "renamed"
    lived.save()
    detail = refusal(files)
    assert detail.startswith("records/")
    assert "this database already holds" in detail


# -- the pages ----------------------------------------------------------------------------------


def test_only_organisers_download_the_archives(lived: Bakeoff, client_for: ClientFor) -> None:
    olga, pat = (User.objects.get(username=name) for name in ("olga", "pat"))
    for path in ("/bakeoffs/b2026/archive.zip", "/bakeoffs/b2026/archive-public.zip"):
        answer = client_for(olga).get(path)
        assert answer.status_code == 200 and answer.content.startswith(b"PK"), path
        assert client_for(pat).get(path).status_code == 404
        anonymous = client_for(None).get(path)
        assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    zipped = zipfile.ZipFile(
        io.BytesIO(client_for(olga).get("/bakeoffs/b2026/archive.zip").content)
    )
    assert "accounts.jsonl" in zipped.namelist()


def test_the_release_carries_a_corpus_data_only_for_who_may_download_it(
    lived: Bakeoff, client_for: ClientFor
) -> None:
    outsider = User.objects.create_user("oscar")
    for client in (client_for(None), client_for(outsider)):
        answer = client.get("/bakeoffs/b2026/results/release.zip")
        release = zipfile.ZipFile(io.BytesIO(answer.content))
        assert not any(n.startswith(("gold/", "test/")) for n in release.namelist())
        assert "tables/all-tracks.csv" in release.namelist()
        assert "Not included: the gold and test text of PK" in release.read("README.txt").decode()


def test_nothing_whole_before_publication(
    bakeoff: Bakeoff, organiser: User, client_for: ClientFor
) -> None:
    paths = [
        "/bakeoffs/b2026/archive-public.zip",
        "/bakeoffs/b2026/results/release.zip",
        "/bakeoffs/b2026/results/all-tracks.csv",
        "/bakeoffs/b2026/results/all-tracks.json",
        "/bakeoffs/b2026/results/all-tracks.tex",
    ]
    for path in paths:
        assert client_for(organiser).get(path).status_code == 404, path
        assert client_for(None).get(path).status_code in (302, 404), path
    assert client_for(organiser).get("/bakeoffs/b2026/archive.zip").status_code == 200


def test_the_whole_bakeoff_is_every_track_as_published(
    lived: Bakeoff, client_for: ClientFor
) -> None:
    reader = client_for(None)
    pat = client_for(User.objects.get(username="pat"))  # registered for the closed track
    release = zipfile.ZipFile(io.BytesIO(pat.get("/bakeoffs/b2026/results/release.zip").content))
    names = set(release.namelist())
    assert {"gold/PK.txt", "test/PK.txt", "SCORER_VERSION", "README.txt"} <= names
    assert "docs/measures/scoring.md" in names
    assert release.read("SCORER_VERSION").decode().strip() == scoring.__version__
    for track in ("pk-closed", "pk-open"):
        for extension in ("csv", "json", "tex"):
            page = reader.get(f"/bakeoffs/b2026/tracks/{track}/results.{extension}").content
            assert release.read(f"tables/{track}.{extension}") == page, (track, extension)
            for number in (1, 2):
                path = f"/bakeoffs/b2026/results/v{number}/tracks/{track}/results.{extension}"
                assert (
                    release.read(f"tables/v{number}/{track}.{extension}")
                    == reader.get(path).content
                )
    whole_csv = reader.get("/bakeoffs/b2026/results/all-tracks.csv").content.decode()
    assert whole_csv.splitlines()[0].startswith("track,")
    assert sum(line.startswith("pk-closed,") for line in whole_csv.splitlines()) == 5
    whole = json.loads(reader.get("/bakeoffs/b2026/results/all-tracks.json").content)
    assert [t["track"] for t in whole["tracks"]] == ["pk-closed", "pk-open"]
    assert whole["results_version"] == 2
    tex = reader.get("/bakeoffs/b2026/results/all-tracks.tex").content.decode()
    assert tex.startswith("\\documentclass") and tex.count("\\begin{tabular}") >= 2
