"""Management commands: make_token, setup_demo (on a tiny corpus), import_icwb2 (on icwb2-data)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from pytest_django import Settings
from rest_framework.authtoken.models import Token

from bakeoff import clock, demo
from bakeoff.demo_corpus import DemoCorpus
from bakeoff.models import Bakeoff, Submission, SubmissionStatus
from tests.factories import GOLD, TEST, WORDS, make_user
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

ICWB2 = Path(__file__).resolve().parents[3] / "shared" / "data" / "icwb2"


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def current_f(submission: Submission) -> float:
    score = submission.current_score()
    assert score is not None and score.f is not None, submission
    return score.f


def test_make_token_prints_a_new_token(participant: User) -> None:
    key = run("make_token", "pat").strip()
    assert Token.objects.get(user=participant).key == key


def test_make_token_replaces_the_old_token(participant: User) -> None:
    first = run("make_token", "pat").strip()
    assert run("make_token", "pat").strip() != first
    assert Token.objects.filter(user=participant).count() == 1


def test_make_token_refuses_an_unknown_user(db: None) -> None:
    with pytest.raises(CommandError, match="No user"):
        run("make_token", "nobody")


@pytest.fixture
def tiny_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = DemoCorpus(training_text=GOLD, training_words=WORDS, test_text=TEST, gold_text=GOLD)
    monkeypatch.setattr(demo, "build_demo_corpus", lambda: tiny)


def test_setup_demo_builds_the_demo_bakeoff(tiny_demo: None, on_commit: OnCommit) -> None:
    with on_commit():
        output = run("setup_demo")
    bakeoff = Bakeoff.objects.get(slug="demo")
    assert bakeoff.submission_deadline > bakeoff.test_released
    assert sorted(bakeoff.corpora.get().tracks.values_list("slug", flat=True)) == [
        "pd-closed",
        "pd-open",
    ]
    participant = User.objects.get(username="participant")
    site = participant.sites.get()
    assert site.registrations.filter(status="approved").count() == 1  # every closed track
    assert User.objects.get(username="organiser").is_staff
    password = output.split("participant / ")[1].split()[0]
    assert participant.check_password(password)
    runs = Submission.objects.filter(track__corpus__bakeoff=bakeoff)
    assert runs.filter(kind="run").count() >= 3
    assert set(runs.values_list("status", flat=True)) == {SubmissionStatus.SCORED}
    # it runs freeze_published_results (docs/deployment.md): nothing here is published
    assert "Every published bakeoff has a results version." in output


def test_setup_demo_prints_the_address_the_demo_serves_on(
    tiny_demo: None, settings: Settings
) -> None:
    settings.SITE_URL = "http://127.0.0.1:8123"  # make demo DEMO_ADDRESS=127.0.0.1:8123
    assert "The demo is ready: http://127.0.0.1:8123/bakeoffs/demo/" in run("setup_demo")


def test_setup_demo_twice_keeps_the_bakeoff_and_changes_passwords(tiny_demo: None) -> None:
    run("setup_demo")
    output = run("setup_demo")
    assert Bakeoff.objects.filter(slug="demo").count() == 1
    password = output.split("organiser   / ")[1].split()[0]
    assert User.objects.get(username="organiser").check_password(password)


def test_the_organiser_of_the_demo_uses_the_organiser_pages_not_the_admin(
    tiny_demo: None, client_for: ClientFor
) -> None:
    run("setup_demo")
    client = client_for(User.objects.get(username="organiser"))
    assert client.get("/admin/bakeoff/submission/").status_code == 302  # superusers only
    assert client.get("/bakeoffs/demo/organisers/").status_code == 200


def test_import_icwb2_refuses_a_folder_without_the_release(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="gold/"):
        run("import_icwb2", str(tmp_path))


@pytest.mark.skipif(not ICWB2.is_dir(), reason=f"icwb2-data not found at {ICWB2} (../shared)")
def test_import_icwb2_creates_sighan2005(on_commit: OnCommit) -> None:
    with on_commit():
        output = run("import_icwb2", str(ICWB2))
    bakeoff = Bakeoff.objects.get(slug="sighan2005")
    assert sorted(bakeoff.corpora.values_list("abbreviation", flat=True)) == [
        "AS",
        "CITYU",
        "MSR",
        "PKU",
    ]
    assert "line 6612, column 24" in output  # docs/validation.md: ASCII c for ｃ
    assert "Every published bakeoff has a results version." in output  # freeze_published_results
    msr = bakeoff.corpora.get(abbreviation="MSR").current_gold()
    assert msr is not None and len(msr.differences) == 16
    f = {
        (s.track.slug, s.kind): round(current_f(s), 3)
        for s in Submission.objects.filter(track__condition="closed").select_related("track")
    }
    # docs/measures/maxmatch.md: the character-level baseline and topline.
    assert f[("msr-closed", "baseline")] == 0.937
    assert f[("pku-closed", "topline")] == 0.988
    assert f[("as-closed", "baseline")] == 0.887


@pytest.mark.skipif(not ICWB2.is_dir(), reason=f"icwb2-data not found at {ICWB2} (../shared)")
def test_import_icwb2_refuses_to_import_twice(db: None) -> None:
    make_user("x")
    Bakeoff.objects.create(name="x", slug="sighan2005", **demo.timetable(clock.now()))
    with pytest.raises(CommandError, match="--replace"):
        run("import_icwb2", str(ICWB2))


@pytest.fixture
def tiny_release(tmp_path: Path) -> Path:
    (tmp_path / "gold").mkdir()
    (tmp_path / "testing").mkdir()
    (tmp_path / "gold" / "pku_test_gold.utf8").write_text(GOLD, encoding="utf-8")
    (tmp_path / "gold" / "pku_training_words.utf8").write_text(WORDS, encoding="utf-8")
    (tmp_path / "testing" / "pku_test.utf8").write_text(TEST, encoding="utf-8")
    return tmp_path


def test_import_icwb2_replaces_the_bakeoff_and_names_organisers(
    tiny_release: Path, organiser: User
) -> None:
    run("import_icwb2", str(tiny_release))
    run("import_icwb2", str(tiny_release), "--replace", "--organiser", "olga")
    bakeoff = Bakeoff.objects.get(slug="sighan2005")
    assert list(bakeoff.corpora.values_list("abbreviation", flat=True)) == ["PKU"]
    assert list(bakeoff.organisers.all()) == [organiser]
