"""The archives and the whole bakeoff's release as downloaded: by whom, and what they hold."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

import scoring
from bakeoff.models import Bakeoff
from tests.hints import ClientFor

from .archive_fixtures import lived_copy, lived_once

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def lived_once_here(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[int, Path]]:
    """Built once: the tests below only read it (and add an account in their transaction)."""
    yield from lived_once(django_db_blocker, tmp_path_factory.mktemp("lived") / "media")


@pytest.fixture
def lived(lived_once_here: tuple[int, Path], db: None, media_root: Path) -> Bakeoff:
    return lived_copy(lived_once_here, media_root)


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
