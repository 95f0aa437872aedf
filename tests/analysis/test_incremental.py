"""After a score, the analysis touches only what changed (the new run's buckets and the pairs
that involve it) and stores exactly what a full re-analysis of the track stores."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from analysis import services
from analysis.models import RunAnalysis, TrackAnalysis
from bakeoff.models import Bakeoff, Site, Submission, Track
from bakeoff.services import submissions, uploads
from tests.factories import PERFECT_RUN, SPLIT_RUN, WORKED_RUN, rival, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

RUNS = (SPLIT_RUN, PERFECT_RUN, "结婚 的 和尚 未 结婚 的\n我们 在 北京 工作\n今天 天气 很好\n")


def stored(track: Track) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The track's stored analysis and each run's, without the times they were computed at."""
    analysis = TrackAnalysis.objects.get(track=track)
    fields = ("scheme", "scheme_checksum", "signature", "unavailable", "profile", "adjacent")
    track_part = {name: getattr(analysis, name) for name in fields}
    track_part |= {"pairs": analysis.pairs, "scores": analysis.scores, "error": analysis.error}
    runs = {
        run.score_id: {
            "buckets": run.buckets,
            "self_diagnosis": run.self_diagnosis,
            "resampled_f": bytes(run.resampled_f or b""),
        }
        for run in RunAnalysis.objects.filter(score_id__in=analysis.scores)
    }
    return track_part, runs


def add_runs(bakeoff: Bakeoff, closed: Track, on_commit: OnCommit) -> None:
    for number, text in enumerate(RUNS):
        user, _ = rival(bakeoff, closed, name=f"Rivals{number}")
        upload(user, closed, text, on_commit)


def test_incremental_analysis_stores_what_a_full_analysis_stores(
    bakeoff: Bakeoff, participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    add_runs(bakeoff, closed, on_commit)  # each score analysed incrementally after the last
    incremental = stored(closed)
    assert len(incremental[0]["scores"]) == 6  # BASE, TOP and four runs
    assert len(incremental[0]["pairs"]) == 15

    RunAnalysis.objects.all().delete()
    TrackAnalysis.objects.all().delete()
    services.do_analyse_track(closed.pk)  # everything from the files again
    assert stored(closed) == incremental


def test_a_withdrawal_leaves_the_pairs_a_full_analysis_stores(
    bakeoff: Bakeoff, participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    add_runs(bakeoff, closed, on_commit)
    withdrawn = Submission.objects.get(site__name="Rivals1", track=closed)
    with on_commit():  # the track ranked again, then analysed again without the run
        submissions.do_withdraw_run(withdrawn, user=User.objects.get(username="rivals1"))
    incremental = stored(closed)
    assert len(incremental[0]["scores"]) == 5
    assert len(incremental[0]["pairs"]) == 10
    assert not any(str(withdrawn.pk) in key.split("-") for key in incremental[0]["pairs"])

    RunAnalysis.objects.all().delete()
    TrackAnalysis.objects.all().delete()
    services.do_analyse_track(closed.pk)
    assert stored(closed) == incremental


def test_a_new_score_reads_and_scores_only_the_new_run(
    bakeoff: Bakeoff,
    participant: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    read: list[str] = []
    original = uploads.read_stored

    def reading(field: Any) -> bytes:
        read.append(field.name)
        return original(field)

    monkeypatch.setattr(uploads, "read_stored", reading)
    user, _ = rival(bakeoff, closed)
    theirs = upload(user, closed, SPLIT_RUN, on_commit)
    # The run is read to be scored and then analysed; no other run is read again.
    assert [name for name in read if name.startswith("runs/")] == [theirs.file.name] * 2
    assert len(TrackAnalysis.objects.get(track=closed).scores) == 4


def test_a_changed_resampling_analyses_every_run_again(
    bakeoff: Bakeoff,
    participant: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
    settings: Any,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    settings.ANALYSIS_BOOTSTRAP_SAMPLES += 10
    user, _ = rival(bakeoff, closed)
    upload(user, closed, SPLIT_RUN, on_commit)
    analysis = TrackAnalysis.objects.get(track=closed)
    assert analysis.signature["samples"] == settings.ANALYSIS_BOOTSTRAP_SAMPLES
    runs = RunAnalysis.objects.filter(score_id__in=analysis.scores)
    assert {run.buckets["signature"]["samples"] for run in runs} == {analysis.signature["samples"]}
