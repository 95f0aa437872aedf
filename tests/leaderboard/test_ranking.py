"""Standings are computed when a score is stored, and stored: ranks, intervals, pairs.

The bakeoff with the participant's registered site is built once for the module; the runs, by
each test that needs them."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

import scoring
from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Site, Track
from leaderboard.models import TrackRanking, TrackStanding
from leaderboard.services import rank_track
from tests.factories import PERFECT_RUN, SPLIT_RUN, WORKED_RUN, make_scored_runs, rival, upload
from tests.hints import OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, registered_only

pytestmark = pytest.mark.django_db

# Every test here starts from PK with its BASE and TOP scored and ranked and the participant's site
# registered, no run yet; what it adds (runs, a gold version) or deletes (standings) is rolled back
# (tests/module_world.py).
built, world = module_world("ranking", lambda: registered_only(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = (
    taken_from_world(name, "world") for name in SHARED
)


def table(track: Track) -> list[tuple[str, int | None, int]]:
    return [
        (s.submission.label, s.rank, s.position)
        for s in TrackStanding.objects.filter(track=track).select_related("submission__site")
    ]


def test_storing_a_score_ranks_the_track(
    participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    assert table(closed) == [("S01 run 1", 1, 1), ("BASE", None, 2), ("TOP", None, 3)]


def test_base_and_top_are_shown_but_never_ranked(corpus: Corpus, closed: Track) -> None:
    assert [(label, rank) for label, rank, _ in table(closed)] == [("BASE", None), ("TOP", None)]
    assert closed.ranking.ranked_runs == 0


def test_equal_f_shares_a_rank(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, PERFECT_RUN, on_commit)
    user, _ = rival(bakeoff, closed)
    upload(user, closed, PERFECT_RUN, on_commit)
    upload(user, closed, WORKED_RUN, on_commit)
    assert [rank for _, rank, _ in table(closed)] == [1, 1, 3, None, None]


def test_the_intervals_are_the_scoring_librarys(
    participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    submission = upload(participant, closed, WORKED_RUN, on_commit)
    standing = submission.standing
    score = submission.current_score()
    assert score is not None
    result = scoring.Score.from_dict(score.result)
    (row,) = scoring.rank_scores({"run": result})
    assert (standing.cr, standing.cp) == (row.cr, row.cp)
    assert standing.cf == scoring.confidence_interval(result.f, result.true_words)


def test_pairs_not_significantly_different_are_stored(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    user, _ = rival(bakeoff, closed)
    theirs = upload(user, closed, SPLIT_RUN, on_commit)
    # 14 gold words: intervals are wide, the two runs are not significantly different.
    pairs = TrackRanking.objects.get(track=closed).insignificant_pairs
    assert [sorted(pair) for pair in pairs] == [sorted([mine.pk, theirs.pk])]


def test_well_separated_runs_are_all_significantly_different(corpus: Corpus, closed: Track) -> None:
    make_scored_runs(closed, 3, seed=7)
    ranking = TrackRanking.objects.get(track=closed)
    scores = {
        str(s.submission_id): scoring.Score.from_dict(s.score.result)
        for s in closed.standings.filter(rank__isnull=False).select_related("score")
    }
    expected = [[int(a), int(b)] for a, b in scoring.insignificant_pairs(scores)]
    assert sorted(map(sorted, ranking.insignificant_pairs)) == sorted(map(sorted, expected))


def test_the_summary_figures_are_stored(
    participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, PERFECT_RUN, on_commit)
    ranking = TrackRanking.objects.get(track=closed)
    assert (ranking.ranked_runs, ranking.sites, ranking.best_f, ranking.topline_f) == (1, 1, 1, 1)
    assert ranking.baseline_f is not None and ranking.baseline_f < 1
    assert ranking.oov_rate == pytest.approx(2 / 14)


def test_ranking_again_changes_nothing(
    participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    before = table(closed)
    rank_track(closed)
    assert table(closed) == before


def test_a_new_gold_version_ranks_against_it(
    participant: User, site: Site, corpus: Corpus, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    with on_commit():
        gold = services.do_add_gold_version(corpus, PERFECT_RUN.replace("工作", "工 作").encode())
    ranking = TrackRanking.objects.get(track=closed)
    assert ranking.gold_version == gold
    assert {s.score.gold_version_id for s in closed.standings.select_related("score")} == {gold.pk}
    assert ranking.pending_runs == 0


def test_the_command_ranks_every_track(corpus: Corpus, closed: Track) -> None:
    TrackStanding.objects.all().delete()
    out = io.StringIO()
    call_command("rank_tracks", bakeoff="b2026", stdout=out)
    assert "Ranked 2 tracks" in out.getvalue()
    assert len(table(closed)) == 2
