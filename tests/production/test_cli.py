"""The participants' command-line client ``bakeoff`` against a live server on PostgreSQL, with
files in the S3-compatible store and a real worker scoring the run: the whole loop, list →
register → agree → download → validate → submit --wait → results, each command exiting 0, and a
refusal answered in one line with a non-zero exit status."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from bakeoff.models import Corpus, LicenceAcceptance, Submission
from bakeoff_cli.main import main
from tests.factories import PERFECT_RUN, make_bakeoff, make_corpus, make_user, track

from .conftest import ObjectStorage

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

LICENCE = "For research in this bakeoff only."


def bakeoff_cmd(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """Runs ``bakeoff --json ARGV``: its exit status, its JSON output and its error line."""
    try:
        status = main(["--json", *argv])
    except SystemExit as exit:
        status = int(exit.code or 0)
    out, err = capsys.readouterr()
    return status, json.loads(out) if out.strip() else None, err


@pytest.fixture
def platform(
    media: ObjectStorage,
    worker: subprocess.Popen[bytes],
    live_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> User:
    bakeoff = make_bakeoff(slug="cli", auto_approve=True)
    corpus = make_corpus(bakeoff)
    Corpus.objects.filter(pk=corpus.pk).update(licence=LICENCE)
    track(corpus, "closed")
    participant = make_user("cleo")
    token = Token.objects.create(user=participant)
    monkeypatch.setenv("BAKEOFF_URL", live_server.url)
    monkeypatch.setenv("BAKEOFF_TOKEN", token.key)
    monkeypatch.setenv("BAKEOFF_CONFIG", str(tmp_path / "config.json"))
    return participant


def test_the_whole_loop_through_the_command_line(
    platform: User, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, listed, _err = bakeoff_cmd(capsys, "bakeoffs")
    assert status == 0 and [b["slug"] for b in listed] == ["cli"]
    status, tracks, _err = bakeoff_cmd(capsys, "tracks", "cli")
    assert status == 0 and "pk-closed" in [t["slug"] for t in tracks]

    # Before registering, uploading is refused: one line, a code, a non-zero status.
    run = tmp_path / "run.txt"
    run.write_text(PERFECT_RUN, encoding="utf-8")
    status, _out, err = bakeoff_cmd(capsys, "submit", "cli", "pk-closed", str(run))
    assert status == 1 and err.startswith("bakeoff: not_registered: ") and err.count("\n") == 1

    status, site, _err = bakeoff_cmd(
        capsys,
        "register",
        "cli",
        "--name",
        "Cleo Lab",
        "--institution",
        "Uni",
        "--track",
        "pk-closed",
    )
    assert status == 0 and site["registrations"][0]["status"] == "approved"

    # The data waits for the agreement; the run too.
    status, _out, err = bakeoff_cmd(capsys, "download", "cli", "PK", "--to", str(tmp_path))
    assert status == 1 and "licence_not_accepted" in err
    status, _out, err = bakeoff_cmd(capsys, "submit", "cli", "pk-closed", str(run))
    assert status == 1 and "licence_not_accepted" in err
    status, accepted, _err = bakeoff_cmd(capsys, "agree", "cli", "PK")
    assert accepted["corpus"] == "PK"
    assert status == 0 and LicenceAcceptance.objects.get().accepted_by == platform

    data = tmp_path / "data"
    status, fetched, _err = bakeoff_cmd(capsys, "download", "cli", "PK", "--to", str(data))
    assert status == 0
    test_text = data / "cli-pk-test.utf8"
    assert str(test_text) in [f["path"] for f in fetched] and test_text.exists()

    status, valid, _err = bakeoff_cmd(capsys, "validate", str(run), str(test_text))
    assert status == 0 and valid["valid"] is True
    broken = tmp_path / "broken.txt"
    broken.write_text(PERFECT_RUN.replace("北京", "南京"), encoding="utf-8")
    status, _out, err = bakeoff_cmd(capsys, "validate", str(broken), str(test_text))
    assert status == 1 and err.startswith("bakeoff: invalid_run: line 2")

    status, scored, _err = bakeoff_cmd(
        capsys, "submit", "cli", "pk-closed", str(run), "--description", "max match", "--wait"
    )
    assert status == 0 and scored["status"] == "scored" and scored["scores"]["f"] == 1.0
    assert Submission.objects.get(pk=scored["id"]).description == "max match"

    status, runs, _err = bakeoff_cmd(capsys, "runs", "cli", "pk-closed")
    assert status == 0 and [r["id"] for r in runs] == [scored["id"]]
    status, table, _err = bakeoff_cmd(capsys, "results", "cli", "pk-closed")
    assert status == 0 and table["track"] == "pk-closed"
    assert any(row["site"] and row["score"]["f"] == 1.0 for row in table["rows"])


def test_login_stores_the_server_and_a_bad_token_is_refused(
    platform: User, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, token = os.environ["BAKEOFF_URL"], os.environ["BAKEOFF_TOKEN"]
    monkeypatch.delenv("BAKEOFF_URL")
    monkeypatch.delenv("BAKEOFF_TOKEN")
    status, _out, err = bakeoff_cmd(capsys, "bakeoffs")
    assert status == 2 and err.startswith("bakeoff: no_server:")
    status, _out, err = bakeoff_cmd(capsys, "login", "--url", url, "--token", "x" * 40)
    assert status == 1 and err.startswith("bakeoff: authentication_failed:")
    status, _out, _err = bakeoff_cmd(capsys, "login", "--url", url, "--token", token)
    assert status == 0
    status, listed, _err = bakeoff_cmd(capsys, "bakeoffs")
    assert status == 0 and [b["slug"] for b in listed] == ["cli"]
