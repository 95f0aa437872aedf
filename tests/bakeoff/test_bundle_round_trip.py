"""A bakeoff dumped as a bundle and loaded again (docs/bundles.md): the same definition (gb18030
and SIGHAN 2005 included); the next edition moves the timetable and keeps the definition; the
commands that load, dump and clone."""

from __future__ import annotations

import io
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from bakeoff import audit, bundles, icwb2
from bakeoff.models import AuditEntry, Bakeoff
from tests.bakeoff.bundle_files import EXAMPLE, example_manifest
from tests.factories import GOLD, TEST, WORDS, make_bakeoff, make_corpus

pytestmark = pytest.mark.django_db

ICWB2 = Path(__file__).resolve().parents[3] / "shared" / "data" / "icwb2"


def definition_of(bakeoff: Bakeoff) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The bakeoff's bundle, its slug left out: what two loads of one definition share."""
    manifest, files = bundles.bundle_of(bakeoff)
    manifest["bakeoff"]["slug"] = "(any)"
    return manifest, files


def test_dump_then_load_gives_the_same_definition(organiser: User, tmp_path: Path) -> None:
    first = bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser)
    call_command("dump_bakeoff_bundle", "b2027", str(tmp_path / "dumped"), stdout=io.StringIO())
    call_command("dump_bakeoff_bundle", "b2027", str(tmp_path / "b.zip"), stdout=io.StringIO())
    again = bundles.load_bundle(bundles.open_bundle(tmp_path / "dumped"), by=None, slug="again")
    zipped_again = bundles.load_bundle(bundles.open_bundle(tmp_path / "b.zip"), by=None, slug="z")
    assert definition_of(again) == definition_of(first)
    assert definition_of(zipped_again) == definition_of(first)
    assert (tmp_path / "b.zip").read_bytes() == bundles.zip_of(*bundles.bundle_of(first))
    assert (
        json.loads((tmp_path / "dumped" / "bundle.json").read_text("utf-8"))["timetable"]
        == (example_manifest()["timetable"])
    )


def test_a_corpus_in_gb18030_keeps_its_encoding_and_text_through_the_round_trip(
    organiser: User,
) -> None:
    bakeoff = make_bakeoff(slug="gb", organiser=organiser)
    make_corpus(bakeoff, encoding="gb18030", training=GOLD, max_runs=4)
    manifest, files = bundles.bundle_of(bakeoff)
    assert manifest["corpora"][0]["encoding"] == "gb18030"
    assert files["PK/gold.txt"] == GOLD.encode("gb18030")
    files[bundles.MANIFEST] = bundles.manifest_bytes(manifest)
    loaded = bundles.load_bundle(bundles.MemoryBundle(files), by=None, slug="gb2")
    assert definition_of(loaded) == definition_of(bakeoff)
    assert loaded.corpora.get().tracks.filter(max_runs=4).count() == 2


def test_the_next_edition_moves_the_timetable_and_keeps_the_definition(organiser: User) -> None:
    first = bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser, organisers=[organiser])
    bakeoff_2028 = bundles.clone_bakeoff(
        first, slug="b2028", name="Bakeoff 2028", shift_days=366, with_corpora=True, by=organiser
    )
    assert bakeoff_2028.is_draft and bakeoff_2028.name == "Bakeoff 2028"
    assert bakeoff_2028.submission_deadline == first.submission_deadline + timedelta(days=366)
    manifest, files = definition_of(bakeoff_2028)
    expected, expected_files = definition_of(first)
    expected["bakeoff"]["name"] = "Bakeoff 2028"
    expected = bundles.shifted(expected, 366)
    assert (manifest, files) == (expected, expected_files)
    assert list(bakeoff_2028.organisers.all()) == [organiser]
    created = AuditEntry.objects.get(bakeoff=bakeoff_2028, action=audit.BAKEOFF_CREATED)
    assert (created.details["source"], created.details["cloned_from"]) == ("clone", "b2027")
    assert created.details["shift_days"] == 366


def test_the_next_edition_without_corpora_has_the_settings_only(organiser: User) -> None:
    first = bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser, organisers=[organiser])
    clone = bundles.clone_bakeoff(first, slug="bare", shift_days=7, with_corpora=False, by=None)
    assert not clone.corpora.exists()
    assert (clone.grace_minutes, clone.development_runs_per_day) == (10, 4)
    assert clone.test_released == first.test_released + timedelta(days=7)
    assert list(clone.organisers.all()) == [organiser]  # the cloned bakeoff's


def test_the_shift_keeps_the_time_of_day_across_summer_time(organiser: User) -> None:
    berlin = ZoneInfo("Europe/Berlin")
    winter = datetime(2027, 1, 10, 23, 59, tzinfo=berlin)
    bakeoff = make_bakeoff(
        slug="berlin",
        time_zone="Europe/Berlin",
        registration_opens=winter - timedelta(days=9),
        registration_closes=winter - timedelta(days=1),
        training_released=winter - timedelta(days=8),
        test_released=winter - timedelta(days=2),
        submission_deadline=winter,
    )
    clone = bundles.clone_bakeoff(
        bakeoff, slug="summer", shift_days=180, with_corpora=False, by=None
    )
    deadline = clone.submission_deadline.astimezone(berlin)
    assert (deadline.date().isoformat(), deadline.hour, deadline.minute) == ("2027-07-09", 23, 59)
    assert clone.submission_deadline - bakeoff.submission_deadline == timedelta(days=180, hours=-1)


def test_the_commands_load_dump_and_clone(organiser: User, tmp_path: Path) -> None:
    out = io.StringIO()
    call_command("load_bakeoff", str(EXAMPLE), "--organiser", "olga", stdout=out)
    assert "Created b2027 as a draft: 1 corpora, 2 tracks." in out.getvalue()
    call_command("clone_bakeoff", "b2027", "b2028", "--shift-days", "365", stdout=out)
    clone = Bakeoff.objects.get(slug="b2028")
    assert clone.is_draft and not clone.corpora.exists()
    assert list(clone.organisers.all()) == [organiser]
    call_command(
        "clone_bakeoff", "b2027", "b2029", "--shift-days", "1", "--with-corpora", stdout=out
    )
    assert Bakeoff.objects.get(slug="b2029").corpora.count() == 1
    broken = tmp_path / "broken"
    call_command("dump_bakeoff_bundle", "b2027", str(broken), stdout=out)
    (broken / "PK" / "gold.txt").unlink()
    with pytest.raises(CommandError, match=r"corpora\[0\].gold: file 'PK/gold.txt' is not in"):
        call_command("load_bakeoff", str(broken), "--slug", "b2030", stdout=out)
    assert not Bakeoff.objects.filter(slug="b2030").exists()


def test_icwb2_is_imported_through_a_bundle(tmp_path: Path) -> None:
    (tmp_path / "gold").mkdir()
    (tmp_path / "testing").mkdir()
    (tmp_path / "gold" / "pku_test_gold.utf8").write_text(GOLD, encoding="utf-8")
    (tmp_path / "gold" / "pku_training_words.utf8").write_text(WORDS, encoding="utf-8")
    (tmp_path / "testing" / "pku_test.utf8").write_text(TEST, encoding="utf-8")
    bakeoff = icwb2.import_icwb2(tmp_path)
    created = AuditEntry.objects.get(bakeoff=bakeoff, action=audit.BAKEOFF_CREATED)
    assert created.details["source"] == "icwb2"
    assert not bakeoff.is_draft  # the importer opens what it loaded
    manifest, files = bundles.bundle_of(bakeoff)
    assert [c["abbreviation"] for c in manifest["corpora"]] == ["PKU"]
    assert files["PKU/training-words.txt"] == WORDS.encode()
    assert manifest["timetable"]["time_zone"] == "Asia/Shanghai"


@pytest.mark.slow
@pytest.mark.skipif(not ICWB2.is_dir(), reason=f"icwb2-data not found at {ICWB2} (../shared)")
def test_sighan2005_dumped_and_loaded_again_is_the_same_definition() -> None:
    bakeoff = icwb2.import_icwb2(ICWB2)
    manifest, files = bundles.bundle_of(bakeoff)
    corpora = {c["abbreviation"]: c for c in manifest["corpora"]}
    assert sorted(corpora) == ["AS", "CITYU", "MSR", "PKU"]
    assert corpora["MSR"]["accept_differences"]  # its 16 lines, as the SIGHAN scorer took them
    assert files["PKU/gold.txt"] == (ICWB2 / "gold" / "pku_test_gold.utf8").read_bytes()
    files[bundles.MANIFEST] = bundles.manifest_bytes(manifest)
    again = bundles.load_bundle(bundles.MemoryBundle(files), by=None, slug="sighan2005-again")
    assert definition_of(again) == definition_of(bakeoff)
