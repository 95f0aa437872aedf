"""A bakeoff that has lived: runs in every phase, a paper, results published, a corrected gold and
its erratum, a standing table with post-bakeoff runs (the archive tests and the benchmark)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from bakeoff import services
from bakeoff.models import AuditEntry, Bakeoff, SubmissionPhase, SubmissionStatus, Track
from bakeoff.services.development import do_add_development_set
from leaderboard import archive
from leaderboard.archive import records
from leaderboard.archive.importing import MemoryArchive
from leaderboard.services import do_publish_erratum
from psychometric.services import do_start_committee
from tests.factories import (
    GOLD,
    NEAR_PERFECT_RUN,
    SPLIT_RUN,
    WORKED_RUN,
    make_bakeoff,
    make_corpus,
    make_site,
    make_user,
    publish,
    track,
    upload,
)
from tests.hints import OnCommit
from tests.module_world import built_once, captured_on_commit, copy_media
from tests.psychometric.factories import TRAINING

DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUN = "我们 在 上海 学 习\n明天 天气 很 好\n"
CORRECTED_GOLD = GOLD.replace("今天 天气", "今天天气")


def lived_bakeoff(on_commit: OnCommit, *, committee: bool = False) -> Bakeoff:
    olga, pat, rita = (make_user(name) for name in ("olga", "pat", "rita"))
    for user in (olga, pat, rita):
        user.email = f"{user.username}@example.org"
        user.save()
    now = timezone.now()
    # the test phase is open, the training data out since nine days (the development phase)
    bakeoff = make_bakeoff(now, organiser=olga)
    with on_commit():
        corpus = make_corpus(bakeoff, domains="news\nnews\nweibo\n", training=TRAINING)
    do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())
    closed = track(corpus, "closed")
    make_site(bakeoff, pat, [closed])
    make_site(bakeoff, rita, [closed], name="Rivals", institution="Rivals Institute")
    with on_commit():
        services.submit_run(pat, closed, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT)
    upload(pat, closed, WORKED_RUN, on_commit)
    upload(rita, closed, SPLIT_RUN, on_commit)
    services.do_attach_paper(pat, closed, url="https://example.org/paper", title="Our system")
    if committee:  # rates the gold's words: each run's balanced F (docs/measures/balanced-f.md)
        with on_commit():
            do_start_committee(corpus, kind="crf", k=3, seed=1, max_iterations=10)
    with on_commit():
        publish(bakeoff, mode="names")
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED_GOLD.encode(), note="今天天气 is one word")
    with on_commit():
        do_publish_erratum(bakeoff, note="今天天气 is one word", by=olga)
    closed.post_bakeoff_open = True
    closed.save()
    with on_commit():
        late = services.submit_run(
            rita, closed, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )
    late.refresh_from_db()
    assert late.status == SubmissionStatus.SCORED, late.reason
    bakeoff.refresh_from_db()
    return bakeoff


def erase(bakeoff: Bakeoff, *, trail: bool = True) -> None:
    """The bakeoff gone from this database and its storage, audit trail included (which the
    platform never deletes: here it stands for a database that never held it)."""
    rows = records.rows_of(bakeoff)
    for objects in rows.values():
        for file_field in records.file_fields(type(objects[0])):
            for obj in objects:
                stored = getattr(obj, file_field.name)
                if stored:
                    stored.storage.delete(stored.name)
    pk = bakeoff.pk
    bakeoff.delete()
    if not trail:
        return  # as the platform deletes a bakeoff: its audit trail stays
    table = AuditEntry._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER bakeoff_audit_append_only")
        cursor.execute(f"DELETE FROM {table} WHERE bakeoff_id = %s", [pk])
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER bakeoff_audit_append_only")


def organisers_archive(bakeoff: Bakeoff) -> dict[str, bytes]:
    return archive.archive_files(bakeoff, now=timezone.now() + timedelta(seconds=1))


def lived_once(blocker: Any, media: Path, *, committee: bool = False) -> Iterator[tuple[int, Path]]:
    """The lived bakeoff of a module (its key and the module's media root), built once for all its
    tests (tests/module_world.py): for a module-scoped fixture."""
    for bakeoff in built_once(
        blocker, media, lambda: lived_bakeoff(captured_on_commit, committee=committee)
    ):
        yield bakeoff.pk, media


def lived_copy(built: tuple[int, Path], media_root: Path) -> Bakeoff:
    """The module's lived bakeoff for one test: read again (a test may change its copy in memory)
    and its files copied into the test's media root."""
    pk, media = built
    copy_media(media, media_root)
    return Bakeoff.objects.get(pk=pk)


def refusal(files: dict[str, bytes]) -> str:
    with pytest.raises(archive.ArchiveError) as refused:
        archive.import_archive(MemoryArchive(files))
    return refused.value.detail


def closed_track(bakeoff: Bakeoff) -> Track:
    return Track.objects.get(corpus__bakeoff=bakeoff, condition="closed")


__all__ = [
    "User",
    "closed_track",
    "erase",
    "lived_bakeoff",
    "lived_copy",
    "lived_once",
    "organisers_archive",
    "refusal",
]
