"""A full disk, for real: the media root is a tmpfs of 1 MiB, filled up, and a site uploads a run
on the API and the page. The answer is 503 with Retry-After (JSON on the API, words on the page),
no row is written and no file is left; once there is room the same file is accepted."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings
from rest_framework.authtoken.models import Token

from bakeoff.models import Bakeoff, Submission, Track
from tests.factories import GOLD, TEST, WORDS, make_corpus, make_site

pytestmark = pytest.mark.django_db

REPEAT = 1500  # a run of some 90 KB


@pytest.fixture
def small_disk(settings: Settings, tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "small-disk"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {made.stderr.strip()}")
    settings.MEDIA_ROOT = mount
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave: int) -> Path:
    """Fill the disk but ``leave`` bytes."""
    stats = os.statvfs(disk)
    free = stats.f_bavail * stats.f_frsize
    filler = disk / "filler"
    filler.write_bytes(b"\0" * max(0, free - leave))
    return filler


def files_under(disk: Path, folder: str) -> list[str]:
    return sorted(str(p.relative_to(disk)) for p in (disk / folder).rglob("*") if p.is_file())


def test_an_upload_that_meets_a_full_disk_is_refused_whole_and_accepted_once_there_is_room(
    small_disk: Path, bakeoff: Bakeoff, participant: User
) -> None:
    corpus = make_corpus(
        bakeoff, gold=GOLD * REPEAT, test=TEST * REPEAT, words=WORDS, conditions=("closed",)
    )
    closed: Track = corpus.tracks.get()
    make_site(bakeoff, participant, [closed])
    token = Token.objects.create(user=participant).key
    runs_before = files_under(small_disk, "runs")  # BASE and TOP
    filler = fill(small_disk, leave=16 * 1024)
    run = (GOLD * REPEAT).encode()

    api = Client(raise_request_exception=False)
    url = f"/api/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/submissions/"
    answer = api.post(
        url, {"file": SimpleUploadedFile("run.txt", run)}, HTTP_AUTHORIZATION=f"Token {token}"
    )
    assert answer.status_code == 503, answer.content[:300]
    assert answer.json()["code"] == "storage_full"
    assert answer["Retry-After"] == "300"

    page = Client(raise_request_exception=False)
    page.force_login(participant)
    answer = page.post(
        f"/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/upload/",
        {"file": SimpleUploadedFile("run.txt", run), "description": "A system."},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert answer.status_code == 503
    assert "磁盘已满" in answer.content.decode()
    assert answer["Retry-After"] == "300"

    assert not Submission.objects.filter(site__isnull=False).exists()
    assert files_under(small_disk, "runs") == runs_before, "a half-written run was left"

    filler.unlink()
    answer = api.post(
        url, {"file": SimpleUploadedFile("run.txt", run)}, HTTP_AUTHORIZATION=f"Token {token}"
    )
    assert answer.status_code == 201, answer.content[:300]
    assert len(files_under(small_disk, "runs")) == len(runs_before) + 1
