"""``import_icwb2 PATH --standing`` (docs/phases.md): SIGHAN 2005 as published, BASE and TOP
only, every track open for post-bakeoff runs; a run uploaded there is shown, never ranked."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from bakeoff import services
from bakeoff.models import Bakeoff, SubmissionKind, SubmissionPhase, SubmissionStatus, Track
from leaderboard.models import PostBakeoffStanding, ResultsVersion, TrackRanking, TrackStanding
from tests.factories import GOLD, TEST, WORDS, WORKED_RUN, make_user
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

ICWB2 = Path(__file__).resolve().parents[3] / "shared" / "data" / "icwb2"


@pytest.fixture
def tiny_release(tmp_path: Path) -> Path:
    (tmp_path / "gold").mkdir()
    (tmp_path / "testing").mkdir()
    (tmp_path / "gold" / "pku_test_gold.utf8").write_text(GOLD, encoding="utf-8")
    (tmp_path / "gold" / "pku_training_words.utf8").write_text(WORDS, encoding="utf-8")
    (tmp_path / "testing" / "pku_test.utf8").write_text(TEST, encoding="utf-8")
    return tmp_path


def standing_import(path: Path) -> str:
    out = io.StringIO()
    call_command("import_icwb2", str(path), "--standing", stdout=out)
    return out.getvalue()


def register_and_post(user: User, track: Track, text: str, on_commit: OnCommit) -> int:
    services.do_register_site(
        track.corpus.bakeoff,
        user,
        name="A paper",
        institution="Somewhere University",
        country="CN",
        commercial_product=False,
        tracks={track: ""},
    )
    with on_commit():
        run = services.submit_run(user, track, text.encode(), phase=SubmissionPhase.POST_BAKEOFF)
    run.refresh_from_db()
    assert run.status == SubmissionStatus.SCORED, run.reason
    return run.pk


def test_it_imports_the_bakeoff_published_and_open(tiny_release: Path) -> None:
    output = standing_import(tiny_release)
    bakeoff = Bakeoff.objects.get(slug="sighan2005")
    now = timezone.now()
    assert bakeoff.is_published(now) and bakeoff.submission_deadline < now
    assert ResultsVersion.objects.filter(bakeoff=bakeoff, number=1).exists()
    tracks = Track.objects.filter(corpus__bakeoff=bakeoff)
    assert {t.slug for t in tracks} == {"pku-closed", "pku-open"}
    assert all(t.post_bakeoff_open for t in tracks)
    assert "open for post-bakeoff runs: pku-closed, pku-open" in output
    rows = TrackStanding.objects.filter(track__corpus__bakeoff=bakeoff)
    assert {(r.kind, r.rank) for r in rows} == {
        (SubmissionKind.BASELINE, None),
        (SubmissionKind.TOPLINE, None),
    }


def test_a_post_bakeoff_run_on_the_standing_board_is_shown_and_never_ranked(
    tiny_release: Path, anonymous: Client, on_commit: OnCommit
) -> None:
    standing_import(tiny_release)
    track = Track.objects.get(slug="pku-closed")
    pk = register_and_post(make_user("paper"), track, WORKED_RUN, on_commit)
    ranking = TrackRanking.objects.get(track=track)
    assert ranking.ranked_runs == 0
    row = PostBakeoffStanding.objects.get(submission=pk)
    assert row.position == 1
    data = json.loads(anonymous.get("/bakeoffs/sighan2005/tracks/pku-closed/results.json").content)
    assert [r["site"] for r in data["rows"]] == ["BASE", "TOP"]
    assert [r["name"] for r in data["post_bakeoff"]] == ["A paper"]


@pytest.mark.slow
@pytest.mark.skipif(not ICWB2.is_dir(), reason=f"icwb2-data not found at {ICWB2} (../shared)")
def test_the_base_output_as_a_post_bakeoff_run_on_msr_closed(
    anonymous: Client, on_commit: OnCommit
) -> None:
    """The real thing: the forward maximum matching of msr's test text with its training words
    (BASE's own method) uploaded as a post-bakeoff run gets BASE's figures, is not significantly
    different from BASE, and is not ranked."""
    import scoring

    with on_commit():
        standing_import(ICWB2)
    words = (ICWB2 / "gold" / "msr_training_words.utf8").read_text(encoding="utf-8").split()
    text = scoring.maxmatch((ICWB2 / "testing" / "msr_test.utf8").read_text("utf-8"), words)
    track = Track.objects.get(slug="msr-closed")
    pk = register_and_post(make_user("paper"), track, text, on_commit)
    row = PostBakeoffStanding.objects.select_related("score").get(submission=pk)
    base = TrackStanding.objects.select_related("score").get(track=track, kind="baseline")
    assert row.score.f is not None and row.score.f == pytest.approx(base.score.f)
    assert round(row.score.f, 3) == 0.937
    assert row.insignificant_with == [base.submission_id]
    assert TrackRanking.objects.get(track=track).ranked_runs == 0
    page = anonymous.get(f"/bakeoffs/sighan2005/tracks/msr-closed/runs/{pk}/").content.decode()
    assert row.score.signature in page and "Unofficial" in page
