"""The organiser's pages for bundles (docs/bundles.md): load one as a draft, in English and
Chinese, a malformed one shown by path and key; the next edition from the bakeoff page; both for
those who may create bakeoffs only."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from bakeoff import audit, bundles
from bakeoff.models import AuditEntry, Bakeoff
from tests.bakeoff.bundle_files import (
    EXAMPLE,
    counts,
    example_files,
    example_manifest,
    stored_files,
    zipped,
)
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db


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
