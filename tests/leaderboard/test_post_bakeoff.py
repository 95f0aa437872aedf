"""Post-bakeoff runs (docs/phases.md): scored with the current gold, shown apart, never ranked
among the official runs. The published world is built once for the module; the cases before
publication: test_post_bakeoff_alone.py."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries as DjangoAssertMaxNumQueries

from bakeoff import services
from bakeoff.errors import NotRegistered, NotReleased, RunLimitReached
from bakeoff.models import Bakeoff, Submission, SubmissionPhase, SubmissionStatus, Track
from leaderboard.models import PostBakeoffStanding, TrackRanking, TrackStanding
from leaderboard.services import site_aliases
from tests.factories import (
    NEAR_PERFECT_RUN,
    SPLIT_RUN,
    WORKED_RUN,
    make_bakeoff,
    make_corpus,
    make_site,
    make_user,
    publish,
    rival,
    track,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world


def post(
    user: User, track: Track, text: str, on_commit: OnCommit, now: datetime | None = None
) -> Submission:
    with on_commit():
        submission = services.submit_run(
            user, track, text.encode(), phase=SubmissionPhase.POST_BAKEOFF, now=now
        )
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED, submission.reason
    return submission


@dataclass
class Built:
    """The world as built once for the module, and what the shared fixtures would have given."""

    participant: User
    bakeoff: Bakeoff
    closed: Track
    official: list[Submission]


def build_world(on_commit: OnCommit) -> Built:
    """Two official runs, then the results published and the track opened."""
    organiser, participant = make_user("olga", is_staff=True), make_user("pat")
    bakeoff = make_bakeoff(organiser=organiser)
    with on_commit():  # BASE and TOP scored, as this package's corpus
        corpus = make_corpus(bakeoff)
    closed = track(corpus, "closed")
    make_site(bakeoff, participant, [closed])
    runs = [upload(participant, closed, WORKED_RUN, on_commit)]
    user, _ = rival(bakeoff, closed)
    runs.append(upload(user, closed, SPLIT_RUN, on_commit))
    publish(bakeoff)
    closed.post_bakeoff_open = True
    closed.save()
    return Built(participant, bakeoff, closed, runs)


# every test here starts from it, and what it adds (post-bakeoff runs, a closed track) is rolled
# back (tests/module_world.py)
built, mine = module_world("post_bakeoff", lambda: build_world(captured_on_commit))
# The shared fixtures, of the world built once (theirs would make another bakeoff b2026).
bakeoff, closed, participant, official = map(
    taken_from_world, ("bakeoff", "closed", "participant", "official")
)


def official_table(track: Track) -> list[tuple[int, int | None, int]]:
    return list(
        TrackStanding.objects.filter(track=track).values_list("submission", "rank", "position")
    )


def test_a_post_bakeoff_run_is_never_ranked_among_official_runs(
    bakeoff: Bakeoff, closed: Track, official: list[Submission], on_commit: OnCommit
) -> None:
    before = official_table(closed)
    ranking_before = TrackRanking.objects.get(track=closed)
    late, _ = rival(bakeoff, closed, "Latecomers")
    run = post(late, closed, NEAR_PERFECT_RUN, on_commit)  # better than every official run

    assert official_table(closed) == before
    ranking = TrackRanking.objects.get(track=closed)
    assert ranking.ranked_runs == ranking_before.ranked_runs == 2
    assert ranking.best_f is not None and ranking_before.best_f is not None
    assert ranking.best_f == ranking_before.best_f < 1.0
    assert ranking.insignificant_pairs == ranking_before.insignificant_pairs
    assert ranking.pending_runs == 0
    assert not TrackStanding.objects.filter(submission=run).exists()
    row = PostBakeoffStanding.objects.get(submission=run)
    assert row.position == 1
    assert row.score.f == pytest.approx(24 / 27)
    assert row.received_at == run.received_at
    assert row.score.gold_version == ranking.gold_version
    assert row.cr >= 0.0
    assert run.run_number == 1 and run.phase == SubmissionPhase.POST_BAKEOFF


def test_it_lists_the_official_runs_not_significantly_different(
    bakeoff: Bakeoff, closed: Track, official: list[Submission], on_commit: OnCommit
) -> None:
    late, _ = rival(bakeoff, closed, "Latecomers")
    run = post(late, closed, WORKED_RUN, on_commit)  # the same output as the first official run
    row = PostBakeoffStanding.objects.get(submission=run)
    assert official[0].pk in row.insignificant_with


def test_it_refuses_a_track_that_is_not_open(
    bakeoff: Bakeoff, closed: Track, official: list[Submission], participant: User
) -> None:
    closed.post_bakeoff_open = False
    closed.save()
    with pytest.raises(NotReleased):
        services.submit_run(
            participant, closed, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )


def test_it_refuses_an_unregistered_user(
    closed: Track, official: list[Submission], outsider: User
) -> None:
    with pytest.raises(NotRegistered):
        services.submit_run(
            outsider, closed, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )


def test_it_limits_runs_per_site_and_day_not_by_the_run_limit(
    bakeoff: Bakeoff,
    closed: Track,
    official: list[Submission],
    participant: User,
    on_commit: OnCommit,
) -> None:
    # the participant has used one of two test runs; post-bakeoff runs have a limit of their own
    assert bakeoff.post_bakeoff_runs_per_day == 3
    runs = [post(participant, closed, NEAR_PERFECT_RUN, on_commit) for _ in range(3)]
    assert [r.run_number for r in runs] == [1, 2, 3]
    with pytest.raises(RunLimitReached, match="3 post-bakeoff runs allowed per day"):
        services.submit_run(
            participant, closed, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )
    tomorrow = timezone.now() + timedelta(days=1)
    with on_commit():
        fourth = services.submit_run(
            participant,
            closed,
            NEAR_PERFECT_RUN.encode(),
            phase=SubmissionPhase.POST_BAKEOFF,
            now=tomorrow,
        )
    assert fourth.run_number == 4
    assert PostBakeoffStanding.objects.filter(track=closed).count() == 4
    assert TrackRanking.objects.get(track=closed).ranked_runs == 2


def test_a_site_with_only_post_bakeoff_runs_gets_no_publication_alias(
    bakeoff: Bakeoff, closed: Track, official: list[Submission], on_commit: OnCommit
) -> None:
    late, late_site = rival(bakeoff, closed, "Latecomers")
    post(late, closed, NEAR_PERFECT_RUN, on_commit)
    # the codes a publication now would fix: for sites with official runs only
    assert str(late_site.pk) not in site_aliases(bakeoff)
    assert len(site_aliases(bakeoff)) == len(bakeoff.publication.aliases)


# -- pages and exports ---------------------------------------------------------------------------

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


@pytest.fixture
def late_run(
    bakeoff: Bakeoff, closed: Track, official: list[Submission], on_commit: OnCommit
) -> Submission:
    late, _ = rival(bakeoff, closed, "Latecomers")
    return post(late, closed, WORKED_RUN, on_commit)


def test_the_track_page_shows_the_post_bakeoff_table_under_the_official_one(
    anonymous: Client, late_run: Submission
) -> None:
    page = anonymous.get(TRACK).content.decode()
    official_at = page.index("S01 run 1")
    assert page.index("Post-bakeoff runs (unofficial)") > official_at
    table = page[page.index('id="post-bakeoff"') :]
    assert "Latecomers" in table
    assert "S01 run 1" in table  # not significantly different from the same output
    assert f"runs/{late_run.pk}/" in table


def test_the_post_bakeoff_table_dates_a_run_in_the_zone_the_page_leads_with(
    anonymous: Client,
    bakeoff: Bakeoff,
    closed: Track,
    official: list[Submission],
    on_commit: OnCommit,
) -> None:
    # 18:30 UTC is 02:30 the next day in Shanghai, the bakeoff's zone (CST)
    evening = (timezone.now() + timedelta(days=1)).replace(
        hour=18, minute=30, second=0, microsecond=0, tzinfo=UTC
    )
    late, _ = rival(bakeoff, closed, "Latecomers")
    run = post(late, closed, WORKED_RUN, on_commit, now=evening)
    assert run.received_at == evening
    page = anonymous.get(TRACK).content.decode()
    table = page[page.index('id="post-bakeoff"') :]
    next_day = evening + timedelta(days=1)
    assert f"{next_day:%Y-%m-%d} CST</time>" in table
    assert f">{evening:%Y-%m-%d}" not in table.split("</table>")[0]  # shown, not in UTC
    tex = anonymous.get(TRACK + "results.tex").content.decode()
    assert f"({next_day:%Y-%m-%d})" in tex


def test_results_json_carries_post_bakeoff_rows_apart(
    anonymous: Client, late_run: Submission, official: list[Submission]
) -> None:
    data = json.loads(anonymous.get(TRACK + "results.json").content)
    assert [row["rank"] for row in data["rows"]] == [1, 2, None, None]
    assert late_run.pk not in {row.get("id") for row in data["rows"]}
    assert all(row["name"] != "Latecomers" for row in data["rows"])
    (row,) = data["post_bakeoff"]
    assert set(row) >= set(data["rows"][0]) | {"received_at"}
    assert row["rank"] is None
    assert row["name"] == "Latecomers"
    assert row["received_at"] == late_run.received_at.isoformat()
    assert row["score"]["signature"]
    assert "S01 run 1" in row["not_significantly_different_from"]
    assert data["not_significantly_different"] == [["S02 run 1", "S01 run 1"]] or all(
        "Latecomers" not in " ".join(pair) for pair in data["not_significantly_different"]
    )


def test_csv_and_latex_mark_post_bakeoff_rows(anonymous: Client, late_run: Submission) -> None:
    rows = list(csv.DictReader(io.StringIO(anonymous.get(TRACK + "results.csv").content.decode())))
    assert [r["phase"] for r in rows] == ["official"] * 4 + ["post-bakeoff"]
    assert rows[-1]["rank"] == "" and rows[-1]["name"] == "Latecomers"
    assert rows[-1]["received_at"] == late_run.received_at.isoformat()
    tex = anonymous.get(TRACK + "results.tex").content.decode()
    assert "Post-bakeoff runs (unofficial" in tex
    assert tex.index("Post-bakeoff") < tex.index("Latecomers")
    assert f"({late_run.received_at.astimezone(ZoneInfo('Asia/Shanghai')):%Y-%m-%d})" in tex
    assert tex.count("{") == tex.count("}")


def test_the_run_page_shows_signature_and_a_permanent_link(
    anonymous: Client, late_run: Submission
) -> None:
    answer = anonymous.get(f"{TRACK}runs/{late_run.pk}/")
    assert answer.status_code == 200
    page = answer.content.decode()
    score = late_run.current_score()
    assert score is not None
    assert "Unofficial" in page
    assert score.signature in page
    assert f"http://testserver{TRACK}runs/{late_run.pk}/" in page
    assert "Significance against the official runs" in page
    # live (never in a results version): rendered for every reader, never kept as published
    assert not answer.has_header("ETag") and "public" not in answer.get("Cache-Control", "")


def test_the_analysis_never_reads_post_bakeoff_runs(
    closed: Track, official: list[Submission], late_run: Submission, on_commit: OnCommit
) -> None:
    from analysis.models import RunAnalysis
    from analysis.services import do_analyse_track

    with on_commit():
        do_analyse_track(closed.pk)
    analysed = set(RunAnalysis.objects.values_list("submission", flat=True))
    assert {run.pk for run in official} <= analysed
    assert late_run.pk not in analysed


@pytest.mark.parametrize("path", ["", "results.json", "results.csv", "results.tex"])
def test_the_post_bakeoff_table_adds_a_fixed_number_of_queries(
    bakeoff: Bakeoff,
    closed: Track,
    official: list[Submission],
    anonymous: Client,
    django_assert_max_num_queries: DjangoAssertMaxNumQueries,
    on_commit: OnCommit,
    path: str,
    settings: Any,
) -> None:
    # what rendering costs: every request renders (the published cache would answer the second)
    settings.BAKEOFF_PUBLISHED_CACHE = False
    bakeoff.post_bakeoff_runs_per_day = 10
    bakeoff.save()
    late, _ = rival(bakeoff, closed, "Latecomers")
    post(late, closed, WORKED_RUN, on_commit)
    anonymous.get(TRACK + path)
    with CaptureQueriesContext(connection) as one:
        anonymous.get(TRACK + path)
    for i in range(3):
        post(late, closed, [WORKED_RUN, SPLIT_RUN, NEAR_PERFECT_RUN][i], on_commit)
    with django_assert_max_num_queries(len(one)):
        assert anonymous.get(TRACK + path).status_code == 200
    assert PostBakeoffStanding.objects.filter(track=closed).count() == 4
    print(f"{path or 'page'}: {len(one)} queries with 1 post-bakeoff row, at most that with 4")


# -- the released gold is not a run ------------------------------------------------------------


def test_the_gold_itself_is_refused_as_a_post_bakeoff_run_whatever_its_whitespace(
    bakeoff: Bakeoff, closed: Track, official: list[Submission], client_for: ClientFor
) -> None:
    from rest_framework.authtoken.models import Token

    from bakeoff.errors import GoldAsRun
    from bakeoff.models import AuditEntry
    from tests.factories import GOLD

    late, _ = rival(bakeoff, closed, "Latecomers")
    for variant in (GOLD, GOLD.replace(" ", "\u3000").replace("\n", "\r\n"), "\ufeff" + GOLD):
        with pytest.raises(GoldAsRun, match="gold standard of PKc itself"):
            services.submit_run(late, closed, variant.encode(), phase=SubmissionPhase.POST_BAKEOFF)
    token = Token.objects.create(user=late).key
    answer = Client().post(
        f"/api/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/submissions/",
        {"file": io.BytesIO(GOLD.encode()), "phase": "post_bakeoff"},
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "gold_as_run"
    assert not Submission.objects.filter(site__members=late).exists()
    refused = AuditEntry.objects.filter(action="run.refused").latest("pk")
    assert (refused.details["rule"], refused.details["phase"]) == ("gold", "post_bakeoff")
    page = client_for(late).post(
        f"/bakeoffs/{bakeoff.slug}/tracks/{closed.slug}/upload/",
        {"file": io.BytesIO(GOLD.encode()), "phase": "post_bakeoff"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert "标准答案本身" in page.content.decode()


def test_a_system_that_misses_one_word_is_accepted(
    bakeoff: Bakeoff, closed: Track, official: list[Submission], on_commit: OnCommit
) -> None:
    late, _ = rival(bakeoff, closed, "Latecomers")
    run = post(late, closed, NEAR_PERFECT_RUN, on_commit)
    assert PostBakeoffStanding.objects.get(submission=run).score.f == pytest.approx(24 / 27)
