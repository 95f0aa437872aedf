"""A file far larger than a run of the track is refused before it is read: a 64 MiB upload costs
the web worker next to no memory, and the refusal says what to check."""

from __future__ import annotations

import tracemalloc

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import TemporaryUploadedFile

from bakeoff import services
from bakeoff.errors import InvalidFile
from bakeoff.models import Site, Submission, Track
from bakeoff.services.uploads import PLAUSIBLE_GROWTH, PLAUSIBLE_SLACK
from tests.factories import NOW, PERFECT_RUN

pytestmark = pytest.mark.django_db

MIB = 1 << 20


def spooled(size: int) -> TemporaryUploadedFile:
    """An upload as Django's parser leaves it: on disk, its size known."""
    upload = TemporaryUploadedFile("run.txt", "text/plain", size, "utf-8")
    line = ("迈向 充满 希望 的 新 世纪\n" * 1000).encode("utf-8")
    written = 0
    while written < size:
        written += upload.write(line[: size - written])
    upload.seek(0)
    return upload


def test_a_64_mib_upload_is_refused_in_bounded_memory(
    participant: User, pk_closed: Track, team: Site
) -> None:
    upload = spooled(64 * MIB)
    tracemalloc.start()
    try:
        with pytest.raises(InvalidFile) as refused:
            services.submit_run(participant, pk_closed, upload, now=NOW)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        upload.close()
    assert peak < 4 * MIB
    test_bytes = pk_closed.corpus.test_text.size
    assert refused.value.fields == {
        "limit": PLAUSIBLE_GROWTH * test_bytes + PLAUSIBLE_SLACK,
        "test_text_bytes": test_bytes,
    }
    assert "Is it the run for this track?" in refused.value.detail
    assert not Submission.objects.filter(site=team).exists()


def test_a_run_with_generous_whitespace_is_still_read(
    participant: User, pk_closed: Track, team: Site
) -> None:
    spaced = "\n".join("   ".join(line.split()) for line in PERFECT_RUN.split("\n"))
    submission = services.submit_run(participant, pk_closed, spaced.encode(), now=NOW)
    assert submission.size_bytes > len(PERFECT_RUN.encode())
