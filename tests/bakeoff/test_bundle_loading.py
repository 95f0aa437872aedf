"""Loading a bundle (docs/bundles.md): the worked example loads as a draft with every field, from a
folder or a zip; a malformed bundle is refused by path and key and leaves nothing; a zip is read up
to a bound."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from bakeoff import audit, bundles
from bakeoff.models import AuditEntry, Bakeoff, DevelopmentSet, Submission
from bakeoff.services import uploads
from tests.bakeoff.bundle_files import (
    EXAMPLE,
    bundle,
    counts,
    example_files,
    example_manifest,
    stored_files,
    zipped,
)
from tests.factories import GOLD, TEST, WORDS, make_bakeoff, make_corpus

pytestmark = pytest.mark.django_db


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
