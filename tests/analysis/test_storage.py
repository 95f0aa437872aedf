"""The analysis is computed when a score is stored, stored with its signature, and only read.

The world (a site's run on PK) is built once for the module; the case without a training text,
which starts from a bakeoff with no corpus: test_storage_alone.py."""

from __future__ import annotations

from datetime import timedelta
from typing import NoReturn

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from analysis import failures, prepared, services
from analysis.models import RunAnalysis, TrackAnalysis
from bakeoff.models import Bakeoff, Submission, Track
from bakeoff.services import gold_index_for
from scoring import ATTRIBUTES, paired_bootstrap, score_run_details
from tests.factories import (
    PERFECT_RUN,
    SPLIT_RUN,
    rival,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import module_world, taken_from_world

from .analysed_world import TAKEN, build_world

pytestmark = pytest.mark.django_db

ANALYSIS = "/bakeoffs/b2026/tracks/pk-closed/runs/{}/analysis/"


# Every test here reads the analysed run, or changes the rows inside its own transaction, which is
# rolled back (tests/module_world.py). The world's own fixture is ``world``: ``mine`` is the run.
built, world = module_world("analysis_storage", build_world)
organiser, participant, bakeoff, closed, mine = (taken_from_world(name, "world") for name in TAKEN)


def test_storing_a_score_stores_the_analysis_of_every_run_of_the_track(
    closed: Track, mine: Submission
) -> None:
    analysed = RunAnalysis.objects.filter(submission__track=closed)
    assert sorted(a.submission.label for a in analysed) == ["BASE", "S01 run 1", "TOP"]
    run = RunAnalysis.objects.get(score=mine.current_score())
    assert set(run.buckets["attributes"]) == set(ATTRIBUTES)  # jsonb keeps no key order
    assert all(run.buckets["attributes"][name] for name in ATTRIBUTES)  # training text: all 7
    track = TrackAnalysis.objects.get(track=closed)
    assert run.scheme_checksum == track.scheme_checksum
    assert run.buckets["signature"]["scheme_checksum"] == run.scheme_checksum
    assert run.buckets["signature"]["training_checksum"] == closed.corpus.training_text_checksum
    assert track.signature["samples"] == 1000 and not track.error


def test_the_buckets_sum_to_the_run_and_the_gold_words(mine: Submission) -> None:
    buckets = RunAnalysis.objects.get(score=mine.current_score()).buckets
    for name in ATTRIBUTES:
        assert sum(b["gold_words"] for b in buckets["attributes"][name]) == 14
        assert sum(b["run_words"] for b in buckets["attributes"][name]) == 13
        assert sum(b["correct_gold"] for b in buckets["attributes"][name]) == 11


def test_the_self_diagnosis_is_stored_with_the_buckets(mine: Submission) -> None:
    diagnosis = RunAnalysis.objects.get(score=mine.current_score()).self_diagnosis
    assert diagnosis["wLen"]["worst"] == "wLen {3}" and diagnosis["wLen"]["worst_f"] == 0.0
    assert diagnosis["wCon"]["gap"] == pytest.approx(diagnosis["wCon"]["best_f"])


def test_analysing_again_leaves_the_same_rows(closed: Track, mine: Submission) -> None:
    before = {a.score_id: a.buckets for a in RunAnalysis.objects.all()}
    pairs = TrackAnalysis.objects.get(track=closed).pairs
    TrackAnalysis.objects.filter(track=closed).update(scores=[])  # as if a score had changed
    services.do_analyse_track(closed.pk)
    assert {a.score_id: a.buckets for a in RunAnalysis.objects.all()} == before
    assert TrackAnalysis.objects.get(track=closed).pairs == pairs


def test_the_same_scores_are_analysed_once(
    closed: Track, mine: Submission, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("analysed again")

    stored = TrackAnalysis.objects.get(track=closed)
    assert stored.scores == sorted(closed.standings.values_list("score_id", flat=True))
    monkeypatch.setattr(services, "score_run_details", refuse)
    assert services.do_analyse_track(closed.pk) == stored


def test_a_stale_analysis_does_not_overwrite_a_newer_one(closed: Track, mine: Submission) -> None:
    newer = timezone.now() + timedelta(hours=1)
    TrackAnalysis.objects.filter(track=closed).update(started_at=newer, pairs={}, scores=[])
    services.do_analyse_track(closed.pk)
    assert TrackAnalysis.objects.get(track=closed).pairs == {}


def test_the_stored_bootstrap_is_the_scoring_librarys(
    bakeoff: Bakeoff, closed: Track, mine: Submission, on_commit: OnCommit
) -> None:
    user, _ = rival(bakeoff, closed)
    theirs = upload(user, closed, SPLIT_RUN, on_commit)
    stored = TrackAnalysis.objects.get(track=closed).pairs[services.pair_key(mine.pk, theirs.pk)]
    score = mine.current_score()
    assert score is not None
    gold = score.gold_version
    runs = [
        score_run_details(s.file.open("rb").read(), gold_index_for(gold)) for s in (mine, theirs)
    ]
    expected = paired_bootstrap(*runs, names=(str(mine.pk), str(theirs.pk)))
    assert stored["probability"] == expected.probability
    assert str(stored["upper"]) == expected.upper and str(stored["lower"]) == expected.lower


def test_adjacent_ranks_are_stored_best_first(
    bakeoff: Bakeoff, closed: Track, mine: Submission, on_commit: OnCommit
) -> None:
    user, _ = rival(bakeoff, closed)
    best = upload(user, closed, PERFECT_RUN, on_commit)
    adjacent = TrackAnalysis.objects.get(track=closed).adjacent
    assert [(p["upper"], p["lower"]) for p in adjacent] == [(best.pk, mine.pk)]
    assert adjacent[0]["probability"] < 0.5


def test_the_pages_only_read(
    client_for: ClientFor,
    organiser: User,
    closed: Track,
    mine: Submission,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("a page computed an analysis")

    monkeypatch.setattr(services, "do_analyse_track", refuse)
    monkeypatch.setattr(services, "score_run_details", refuse)
    monkeypatch.setattr(prepared, "prepared_track", refuse)
    client = client_for(organiser)
    base = closed.submissions.get(kind="baseline")
    for path in (
        ANALYSIS.format(mine.pk),
        ANALYSIS.format(mine.pk) + f"?with={base.pk}",
        "/bakeoffs/b2026/tracks/pk-closed/",
        "/bakeoffs/b2026/results/",
    ):
        assert client.get(path).status_code == 200


def test_three_systems_give_a_friedman_test_per_attribute(
    bakeoff: Bakeoff, closed: Track, mine: Submission, on_commit: OnCommit
) -> None:
    for name, text in (("Rivals", PERFECT_RUN), ("Thirds", SPLIT_RUN)):
        user, _ = rival(bakeoff, closed, name)
        upload(user, closed, text, on_commit)
    profile = {p["attribute"]: p for p in TrackAnalysis.objects.get(track=closed).profile}
    assert 0 <= profile["sLen"]["friedman_p"] <= 1  # three buckets, F defined for every run
    assert profile["wLen"]["friedman_p"] is None  # only {1} and {2} have F for every run
    assert profile["wLen"]["alpha_mu"] == pytest.approx(22 / 14)


def test_a_failed_analysis_is_recorded_and_the_scores_stand(
    client_for: ClientFor,
    organiser: User,
    closed: Track,
    mine: Submission,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from analysis.tasks import analyse_track

    def broken(*args: object, **kwargs: object) -> NoReturn:
        raise RuntimeError("a bug")

    TrackAnalysis.objects.filter(track=closed).update(scores=[])
    monkeypatch.setattr(prepared, "prepared_track", broken)
    analyse_track(closed.pk)
    failed = TrackAnalysis.objects.get(track=closed)
    assert failed.error == "Internal error while analysing (RuntimeError)."
    assert (failed.error_code, failed.error_params) == (
        failures.INTERNAL_ERROR,
        {"error": "RuntimeError"},
    )
    page = client_for(organiser).get("/bakeoffs/b2026/tracks/pk-closed/").content.decode()
    assert "could not be computed" in page and "0.815" in page
    assert "Internal error while analysing (RuntimeError)." in page


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("zh-hans", "分析时发生内部错误（RuntimeError）。"),
        ("zh-hant", "分析時發生內部錯誤（RuntimeError）。"),
    ],
)
def test_a_failed_analysis_is_told_in_the_readers_language(
    client_for: ClientFor,
    organiser: User,
    closed: Track,
    mine: Submission,
    language: str,
    reason: str,
) -> None:
    services.do_record_failure(
        closed.pk, failures.failure(failures.INTERNAL_ERROR, {"error": "RuntimeError"})
    )
    client = client_for(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get("/bakeoffs/b2026/tracks/pk-closed/").content.decode()
    assert reason in page and "Internal error" not in page


def test_a_reason_stored_before_the_codes_is_shown_as_it_was(
    client_for: ClientFor, organiser: User, closed: Track, mine: Submission
) -> None:
    TrackAnalysis.objects.filter(track=closed).update(error="Internal error (old).", error_code="")
    client = client_for(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    assert (
        "Internal error (old)." in client.get("/bakeoffs/b2026/tracks/pk-closed/").content.decode()
    )
