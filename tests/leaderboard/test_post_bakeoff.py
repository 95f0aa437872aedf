"""Post-bakeoff runs (docs/phases.md): scored with the current gold, shown apart, never ranked
among the official runs."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from bakeoff import services
from bakeoff.errors import NotRegistered, NotReleased, RunLimitReached
from bakeoff.models import Bakeoff, Site, Submission, SubmissionPhase, SubmissionStatus, Track
from leaderboard.models import PostBakeoffStanding, TrackRanking, TrackStanding
from leaderboard.services import site_aliases
from tests.factories import PERFECT_RUN, SPLIT_RUN, WORKED_RUN, publish, rival, upload
from tests.hints import OnCommit


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


@pytest.fixture
def official(
    bakeoff: Bakeoff, participant: User, closed: Track, site: Site, on_commit: OnCommit
) -> list[Submission]:
    """Two official runs, then the results published and the track opened."""
    runs = [upload(participant, closed, WORKED_RUN, on_commit)]
    user, _ = rival(bakeoff, closed)
    runs.append(upload(user, closed, SPLIT_RUN, on_commit))
    publish(bakeoff)
    closed.post_bakeoff_open = True
    closed.save()
    return runs


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
    run = post(late, closed, PERFECT_RUN, on_commit)  # better than every official run

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
    assert row.score.f == 1.0
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
            participant, closed, PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )


def test_it_refuses_before_publication(
    bakeoff: Bakeoff, closed: Track, site: Site, participant: User
) -> None:
    closed.post_bakeoff_open = True
    closed.save()
    with pytest.raises(NotReleased):
        services.submit_run(
            participant, closed, PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )


def test_it_refuses_an_unregistered_user(
    closed: Track, official: list[Submission], outsider: User
) -> None:
    with pytest.raises(NotRegistered):
        services.submit_run(
            outsider, closed, PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
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
    runs = [post(participant, closed, PERFECT_RUN, on_commit) for _ in range(3)]
    assert [r.run_number for r in runs] == [1, 2, 3]
    with pytest.raises(RunLimitReached, match="3 post-bakeoff runs allowed per day"):
        services.submit_run(
            participant, closed, PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )
    tomorrow = timezone.now() + timedelta(days=1)
    with on_commit():
        fourth = services.submit_run(
            participant,
            closed,
            PERFECT_RUN.encode(),
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
    post(late, closed, PERFECT_RUN, on_commit)
    # the codes a publication now would fix: for sites with official runs only
    assert str(late_site.pk) not in site_aliases(bakeoff)
    assert len(site_aliases(bakeoff)) == len(bakeoff.publication.aliases)
