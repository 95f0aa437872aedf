"""Storage against the database: orphans reported and removed once old, lost files reported, and
a command that says both (docs/operations.md)."""

from __future__ import annotations

import os
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from bakeoff.models import Corpus, Site, Submission, Track
from bakeoff.services.reconcile import do_reconcile, file_columns
from tests.factories import GOLD, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db


def test_every_file_column_of_the_platform_is_found() -> None:
    labels = {c.label for c in file_columns()}
    assert {
        "bakeoff.Submission.file",
        "bakeoff.Corpus.test_text",
        "bakeoff.Corpus.training_words",
        "bakeoff.GoldVersion.file",
        "bakeoff.DevelopmentSet.gold",
        "bakeoff.SystemPaper.file",
    } <= labels
    assert {c.folder for c in file_columns()} >= {"runs", "corpora", "gold"}


def orphan(media_root: Path, name: str, hours_old: float) -> Path:
    path = media_root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"left behind")
    then = time.time() - hours_old * 3600
    os.utime(path, (then, then))
    return path


def test_a_clean_storage_has_no_orphan_and_loses_nothing(
    media_root: Path,
    corpus: Corpus,
    site: Site,
    closed: Track,
    participant: User,
    on_commit: OnCommit,
) -> None:
    upload(participant, closed, GOLD, on_commit)
    report = do_reconcile()
    assert report.orphans == [] and report.missing == []
    assert report.stored == report.named >= 4  # test text, words, gold, the run (and BASE, TOP)


def test_orphans_are_reported_and_only_the_old_ones_removed(
    media_root: Path, corpus: Corpus
) -> None:
    old = orphan(media_root, "runs/crashed-upload.txt", hours_old=2)
    young = orphan(media_root, "runs/being-committed.txt", hours_old=0.1)
    outside = orphan(media_root, "elsewhere/not-ours.txt", hours_old=5)
    report = do_reconcile()
    assert sorted(o.name for o in report.orphans) == [
        "runs/being-committed.txt",
        "runs/crashed-upload.txt",
    ]
    assert old.exists() and young.exists()  # reported, not removed, unless asked

    report = do_reconcile(remove_orphans=True, min_age=timedelta(hours=1))
    assert report.removed == ["runs/crashed-upload.txt"]
    assert report.kept_young == ["runs/being-committed.txt"]
    assert not old.exists() and young.exists()
    assert outside.exists()  # nothing outside the platform's folders is looked at


def test_a_row_whose_file_is_gone_is_reported_by_the_command(
    media_root: Path, site: Site, closed: Track, participant: User, on_commit: OnCommit
) -> None:
    run = upload(participant, closed, GOLD, on_commit)
    (media_root / str(run.file.name)).unlink()
    report = do_reconcile()
    assert [(m.column, m.pk, m.name) for m in report.missing] == [
        ("bakeoff.Submission.file", run.pk, run.file.name)
    ]
    with pytest.raises(CommandError, match="1 row without the file it names"):
        call_command("reconcile_storage")
    assert Submission.objects.filter(pk=run.pk).exists()  # nothing is changed in the database


def test_the_command_removes_old_orphans_when_asked(
    media_root: Path, corpus: Corpus, capsys: pytest.CaptureFixture[str]
) -> None:
    old = orphan(media_root, "corpora/half-written.txt", hours_old=3)
    call_command("reconcile_storage")
    assert old.exists()
    assert "orphan: corpora/half-written.txt (11 bytes" in capsys.readouterr().out
    call_command("reconcile_storage", "--remove-orphans")
    out = capsys.readouterr().out
    assert "corpora/half-written.txt (11 bytes" in out and ": removed" in out
    assert "1 orphan (1 removed), 0 rows without its file." in out
    assert not old.exists()
