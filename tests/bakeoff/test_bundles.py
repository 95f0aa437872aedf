"""Bundles (docs/bundles.md): the worked example loads as a draft with every field; a malformed
bundle is refused by path and key and leaves nothing; dump then load gives the same definition;
the next edition moves the timetable; the organiser's pages, in English and Chinese."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from bakeoff import audit, bundles, icwb2
from bakeoff.models import (
    AuditEntry,
    Bakeoff,
    Corpus,
    DevelopmentSet,
    GoldVersion,
    Submission,
    Track,
)
from bakeoff.services import uploads
from tests.factories import GOLD, TEST, WORDS, make_bakeoff, make_corpus
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).parent / "bundle_example"
ICWB2 = Path(__file__).resolve().parents[3] / "shared" / "data" / "icwb2"


def example_files() -> dict[str, bytes]:
    return {
        path.relative_to(EXAMPLE).as_posix(): path.read_bytes()
        for path in EXAMPLE.rglob("*")
        if path.is_file()
    }


def example_manifest() -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((EXAMPLE / "bundle.json").read_text("utf-8"))
    return manifest


def bundle(manifest: dict[str, Any], files: dict[str, bytes] | None = None) -> bundles.MemoryBundle:
    files = dict(example_files() if files is None else files)
    files[bundles.MANIFEST] = json.dumps(manifest).encode()
    return bundles.MemoryBundle(files)


def zipped(files: dict[str, bytes], prefix: str = "") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(prefix + name, data)
    return buffer.getvalue()


def stored_files() -> list[Path]:
    return sorted(p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file())


MODELS = (Bakeoff, Corpus, Track, GoldVersion, Submission, DevelopmentSet, AuditEntry)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def test_the_worked_example_loads_as_a_draft_with_every_field(organiser: User) -> None:
    bakeoff = bundles.load_bundle(
        bundles.open_bundle(EXAMPLE), by=organiser, organisers=[organiser]
    )
    assert bakeoff.is_draft
    assert (bakeoff.name, bakeoff.slug) == ("Bakeoff 2027", "b2027")
    assert bakeoff.description == "A worked example: one corpus, two tracks."
    assert bakeoff.auto_approve and bakeoff.hide_scores_until_publication
    assert bakeoff.time_zone == "Asia/Shanghai"
    assert bakeoff.registration_opens == datetime(2027, 3, 1, 1, 0, tzinfo=UTC)
    assert bakeoff.registration_closes == datetime(2027, 5, 31, 15, 59, tzinfo=UTC)
    assert bakeoff.training_released == datetime(2027, 4, 1, 1, 0, tzinfo=UTC)
    assert bakeoff.test_released == datetime(2027, 6, 1, 1, 0, tzinfo=UTC)
    assert bakeoff.submission_deadline == datetime(2027, 6, 3, 12, 0, tzinfo=UTC)
    assert bakeoff.grace_minutes == 10
    assert bakeoff.results_published is None
    assert (bakeoff.development_runs_per_day, bakeoff.development_table_public) == (4, True)
    assert bakeoff.post_bakeoff_runs_per_day == 2
    assert list(bakeoff.organisers.all()) == [organiser]
    corpus = bakeoff.corpora.get()
    assert (corpus.abbreviation, corpus.name, corpus.institution, corpus.standard) == (
        "PK",
        "Peking University corpus",
        "Peking University",
        "PKU",
    )
    assert corpus.encoding == "utf-8"
    assert corpus.notes == "The worked example of docs/measures/scoring.md."
    assert corpus.licence == "The PK corpus is for research only.\nDo not redistribute it."
    assert uploads.read_stored_text(corpus.test_text) == TEST
    assert uploads.read_stored_text(corpus.training_words) == WORDS
    assert not corpus.training_text
    gold = corpus.current_gold()
    assert gold is not None and gold.number == 1
    assert uploads.read_stored_text(gold.file) == GOLD
    assert corpus.domains == [{"domain": "news", "lines": 2}, {"domain": "weibo", "lines": 1}]
    development = DevelopmentSet.objects.get(corpus=corpus)
    assert uploads.read_stored_text(development.gold) == "今天 天气 很 好\n我们 在 北京\n"
    assert uploads.read_stored_text(development.text) == "今天天气很好\n我们在北京\n"
    tracks = {t.condition: (t.max_runs, t.bucket_scheme) for t in corpus.tracks.all()}
    assert tracks == {"closed": (3, "default"), "open": (2, "interpreteval")}
    assert Submission.objects.filter(track__corpus=corpus, kind="baseline").count() == 2
    created = AuditEntry.objects.get(bakeoff=bakeoff, action=audit.BAKEOFF_CREATED)
    assert created.actor == organiser
    assert created.details["source"] == "bundle"
    assert created.details["bundle_version"] == 1
    assert created.details["bundle_checksum"].startswith("sha256:")
    actions = set(AuditEntry.objects.filter(bakeoff=bakeoff).values_list("action", flat=True))
    assert {audit.CORPUS_ADDED, audit.TRACK_ADDED, audit.DEVELOPMENT_SET_ADDED} <= actions


def test_a_zip_of_the_example_loads_also_from_inside_one_folder(organiser: User) -> None:
    data = zipped(example_files(), prefix="b2027/")
    bakeoff = bundles.load_bundle(bundles.zip_bundle(data), by=organiser, slug="zipped")
    assert bakeoff.slug == "zipped" and bakeoff.corpora.get().tracks.count() == 2


def _set(path: str, value: object) -> Callable[[dict[str, Any], dict[str, bytes]], None]:
    """A change of the example's manifest at ``path`` (dots and list indices)."""

    def change(manifest: dict[str, Any], files: dict[str, bytes]) -> None:
        *parents, last = path.split(".")
        node: Any = manifest
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value

    return change


DELETE = object()


def _drop_file(name: str) -> Callable[[dict[str, Any], dict[str, bytes]], None]:
    def drop(manifest: dict[str, Any], files: dict[str, bytes]) -> None:
        del files[name]

    return drop


def _put_file(name: str, data: bytes) -> Callable[[dict[str, Any], dict[str, bytes]], None]:
    return lambda manifest, files: files.__setitem__(name, data)


MALFORMED = [
    (_drop_file("PK/gold.txt"), "corpora[0].gold: file 'PK/gold.txt' is not in the bundle"),
    (
        _set("timetable.submission_deadline", "2027-06-03 20:00"),
        "timetable.submission_deadline: not an instant",
    ),
    (_set("timetable.test_released", 20270601), "timetable.test_released: not an instant"),
    (
        _set("timetable.submission_deadline", "2027-05-01T20:00:00+08:00"),
        "timetable.submission_deadline: The deadline must follow the test data.",
    ),
    (_set("timetable.time_zone", "Mars/Olympus"), "timetable.time_zone: 'Mars/Olympus' is not"),
    (_set("timetable.grace_minutes", "ten"), "timetable.grace_minutes: not a whole number"),
    (_set("bakeoff.name", DELETE), "bakeoff.name: missing"),
    (_set("bakeoff.name", "Two\nlines"), "bakeoff.name: A name is one line"),
    (_set("bakeoff.auto_approve", "yes"), "bakeoff.auto_approve: not true or false"),
    (_set("phases.development.runs_per_day", -1), "phases.development.runs_per_day:"),
    (_set("corpora.0.gld", "PK/gold.txt"), "corpora[0].gld: not a key of this format"),
    (_set("corpora.0.abbreviation", "P-K"), "corpora[0].abbreviation: Letters and digits"),
    (_set("corpora.0.encoding", "latin1"), "corpora[0].encoding: one of utf-8, gb18030"),
    (_set("corpora.0.institution", ""), "corpora[0].institution: This field is required."),
    (_set("corpora.0.gold", "../gold.txt"), "corpora[0].gold: a path inside the bundle"),
    (_set("corpora.0.tracks.1.condition", "closed"), "corpora[0].tracks[1].condition: closed"),
    (_set("corpora.0.tracks.0.max_runs", 0), "corpora[0].tracks[0].max_runs: Ensure this value"),
    (_set("corpora.0.tracks.0.bucket_scheme", "mine"), "corpora[0].tracks[0].bucket_scheme:"),
    (_set("corpora.0.tracks", {"closed": 2}), "corpora[0].tracks: not a list"),
    (_put_file("PK/gold.txt", b"\xff\xfe broken"), "corpora[0].gold: gold:"),
    (_put_file("PK/domains.txt", b"news\n"), "corpora[0].domain_labels: domain labels:"),
    (_put_file("PK/licence.txt", b"\xff"), "corpora[0].licence: the file is not UTF-8 text"),
    (_set("version", 2), "version: version 2 is newer than this platform reads (1)"),
    (_set("format", "competition.yaml"), "format: one of 'bakeoff-bundle'"),
    (
        lambda manifest, files: manifest["corpora"].append(dict(manifest["corpora"][0])),
        "corpora[1].abbreviation: PK appears twice",
    ),
    # Found while loading, after files were stored: those are removed too.
    (
        _set("corpora.0.development", {"text": "PK/test.txt", "gold": "PK/development-gold.txt"}),
        "corpora[0].development: development gold: the gold standard has 2 lines",
    ),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED)
def test_a_malformed_bundle_is_refused_by_path_and_key_and_leaves_nothing(
    change: Callable[[dict[str, Any], dict[str, bytes]], None], message: str, organiser: User
) -> None:
    make_corpus(make_bakeoff(slug="other", organiser=organiser))  # rows and files already there
    manifest, files = example_manifest(), example_files()
    change(manifest, files)
    before, files_before = counts(), stored_files()
    with pytest.raises(bundles.BundleError) as refused:
        bundles.load_bundle(bundle(manifest, files), by=organiser, organisers=[organiser])
    assert str(refused.value).startswith(message), str(refused.value)
    assert counts() == before
    assert stored_files() == files_before


def test_the_failure_found_while_loading_stored_files_first(organiser: User) -> None:
    """The development set is checked by its service, after the corpus's files are stored."""
    manifest = example_manifest()
    manifest["corpora"][0]["development"]["text"] = "PK/test.txt"
    before = stored_files()
    with pytest.raises(bundles.BundleError):
        bundles.load_bundle(bundle(manifest), by=organiser)
    assert stored_files() == before


def test_a_taken_slug_is_refused_by_its_key(organiser: User) -> None:
    make_bakeoff(slug="b2027")
    with pytest.raises(
        bundles.BundleError, match=r"^bakeoff.slug: Another bakeoff already has this short name"
    ):
        bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser)


def test_what_is_not_a_bundle_is_refused(tmp_path: Path) -> None:
    with pytest.raises(bundles.BundleError, match=r"^bundle: not a zip file"):
        bundles.zip_bundle(b"not a zip")
    with pytest.raises(bundles.BundleError, match=r"^bundle.json: missing"):
        bundles.load_bundle(bundles.zip_bundle(zipped({"a.txt": b"a"})), by=None)
    with pytest.raises(bundles.BundleError, match=r"^bundle.json: not JSON"):
        bundles.load_bundle(bundles.MemoryBundle({"bundle.json": b"{"}), by=None)


def test_a_zip_is_read_up_to_a_bound(organiser: User, settings: Any) -> None:
    """A zip bomb stops at eight times the upload cap, all files together (the manifest aside)."""
    settings.BAKEOFF_MAX_UPLOAD_BYTES = 300
    manifest, files = example_manifest(), example_files()
    manifest["corpora"][0]["training_text"] = "PK/training.txt"
    files["PK/training.txt"] = GOLD.encode() * 100  # 8,000 bytes, after 204 of other files
    files[bundles.MANIFEST] = json.dumps(manifest).encode()
    with pytest.raises(bundles.BundleError) as refused:
        bundles.load_bundle(bundles.zip_bundle(zipped(files)), by=organiser)
    assert str(refused.value) == (
        "corpora[0].training_text: the bundle's files add up to more than 2,400 bytes"
    )
    assert not Bakeoff.objects.exists()


def _definition(bakeoff: Bakeoff) -> tuple[dict[str, Any], dict[str, bytes]]:
    manifest, files = bundles.bundle_of(bakeoff)
    manifest["bakeoff"]["slug"] = "(any)"
    return manifest, files


def test_dump_then_load_gives_the_same_definition(organiser: User, tmp_path: Path) -> None:
    first = bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser)
    call_command("dump_bakeoff_bundle", "b2027", str(tmp_path / "dumped"), stdout=io.StringIO())
    call_command("dump_bakeoff_bundle", "b2027", str(tmp_path / "b.zip"), stdout=io.StringIO())
    again = bundles.load_bundle(bundles.open_bundle(tmp_path / "dumped"), by=None, slug="again")
    zipped_again = bundles.load_bundle(bundles.open_bundle(tmp_path / "b.zip"), by=None, slug="z")
    assert _definition(again) == _definition(first)
    assert _definition(zipped_again) == _definition(first)
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
    assert _definition(loaded) == _definition(bakeoff)
    assert loaded.corpora.get().tracks.filter(max_runs=4).count() == 2


def test_the_next_edition_moves_the_timetable_and_keeps_the_definition(organiser: User) -> None:
    first = bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser, organisers=[organiser])
    bakeoff_2028 = bundles.clone_bakeoff(
        first, slug="b2028", name="Bakeoff 2028", shift_days=366, with_corpora=True, by=organiser
    )
    assert bakeoff_2028.is_draft and bakeoff_2028.name == "Bakeoff 2028"
    assert bakeoff_2028.submission_deadline == first.submission_deadline + timedelta(days=366)
    manifest, files = _definition(bakeoff_2028)
    expected, expected_files = _definition(first)
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
    assert _definition(again) == _definition(bakeoff)


# -- the organiser's pages ------------------------------------------------------------------------


def upload(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("b2027.zip", data, content_type="application/zip")


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "New bakeoff from a bundle"), ("zh-hans", "从包新建评测"), ("zh-hant", "從包新增評測")],
)
def test_the_page_to_load_a_bundle_speaks_the_readers_language(
    client_for: ClientFor, organiser: User, language: str, title: str
) -> None:
    page = client_for(organiser).get("/bakeoffs/new/bundle/", headers={"accept-language": language})
    assert page.status_code == 200
    assert title in page.content.decode()
    home = client_for(organiser).get("/", headers={"accept-language": language})
    assert "/bakeoffs/new/bundle/" in home.content.decode()


def test_an_organiser_loads_a_bundle_as_a_draft(client_for: ClientFor, organiser: User) -> None:
    answer = client_for(organiser).post(
        "/bakeoffs/new/bundle/", {"bundle": upload(zipped(example_files()))}
    )
    assert answer.status_code == 302 and answer["Location"] == "/bakeoffs/b2027/"
    bakeoff = Bakeoff.objects.get(slug="b2027")
    assert bakeoff.is_draft and list(bakeoff.organisers.all()) == [organiser]


def test_a_malformed_bundle_is_shown_by_path_and_key_in_chinese(
    client_for: ClientFor, organiser: User
) -> None:
    files = example_files()
    del files["PK/gold.txt"]
    before, files_before = counts(), stored_files()
    page = client_for(organiser).post(
        "/bakeoffs/new/bundle/",
        {"bundle": upload(zipped(files))},
        headers={"accept-language": "zh-hans"},
    )
    assert page.status_code == 200
    assert "corpora[0].gold：文件 &#x27;PK/gold.txt&#x27; 不在包中" in page.content.decode()
    assert counts() == before and stored_files() == files_before


def test_the_new_bakeoff_page_records_the_creation_too(
    client_for: ClientFor, organiser: User
) -> None:
    times = {
        key: value[:16]
        for key, value in example_manifest()["timetable"].items()
        if "T" in str(value)
    }
    answer = client_for(organiser).post(
        "/bakeoffs/new/", {"name": "Paged", "slug": "paged", "time_zone": "UTC", **times}
    )
    assert answer.status_code == 302
    created = AuditEntry.objects.get(action=audit.BAKEOFF_CREATED)
    assert (created.bakeoff.slug, created.actor, created.details) == (
        "paged",
        organiser,
        {"source": "page"},
    )


def test_only_who_may_create_bakeoffs_loads_one(client_for: ClientFor, participant: User) -> None:
    assert client_for(participant).get("/bakeoffs/new/bundle/").status_code == 404
    answer = client_for(participant).post(
        "/bakeoffs/new/bundle/", {"bundle": upload(zipped(example_files()))}
    )
    assert answer.status_code == 404 and not Bakeoff.objects.exists()
    assert client_for(None).get("/bakeoffs/new/bundle/").status_code == 302  # to the login


def test_an_organiser_makes_the_next_edition_from_the_bakeoff_page(
    client_for: ClientFor, organiser: User
) -> None:
    bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser, organisers=[organiser])
    client = client_for(organiser)
    page = client.get("/bakeoffs/b2027/", headers={"accept-language": "zh-hant"}).content.decode()
    assert "/bakeoffs/b2027/next-edition/" in page and "下一屆" in page
    answer = client.post(
        "/bakeoffs/b2027/next-edition/",
        {"name": "Bakeoff 2028", "slug": "b2028", "shift_days": "365", "with_corpora": "on"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/bakeoffs/b2028/"
    clone = Bakeoff.objects.get(slug="b2028")
    assert clone.corpora.get().tracks.count() == 2 and clone.is_draft
    bundle_zip = client.get("/bakeoffs/b2027/bundle.zip")
    assert bundle_zip["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(bundle_zip.content)).namelist()
    assert "bundle.json" in names and "PK/gold.txt" in names


def test_the_next_edition_and_the_bundle_are_the_organisers_only(
    client_for: ClientFor, organiser: User, participant: User
) -> None:
    bundles.load_bundle(bundles.open_bundle(EXAMPLE), by=organiser, organisers=[organiser])
    for address in ("/bakeoffs/b2027/next-edition/", "/bakeoffs/b2027/bundle.zip"):
        assert client_for(participant).get(address).status_code == 404
    not_staff = User.objects.create_user("ona")
    Bakeoff.objects.get(slug="b2027").organisers.add(not_staff)
    assert client_for(not_staff).get("/bakeoffs/b2027/next-edition/").status_code == 404
    assert client_for(not_staff).get("/bakeoffs/b2027/bundle.zip").status_code == 200
