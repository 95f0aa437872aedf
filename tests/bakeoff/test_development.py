"""The development phase (docs/phases.md): runs against the development set, limited per day,
never counted toward the test run limit, never official."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from bakeoff import services
from bakeoff.errors import InvalidFile, NotRegistered, NotReleased, RunLimitReached
from bakeoff.models import (
    Bakeoff,
    Corpus,
    DevelopmentScore,
    DevelopmentSet,
    Score,
    Site,
    Submission,
    SubmissionPhase,
    SubmissionStatus,
    Track,
)
from bakeoff.services.development import do_add_development_set
from tests.factories import PERFECT_RUN, RUNS
from tests.hints import OnCommit

DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUN = "我们 在 上海 学 习\n明天 天气 很 好\n"


@pytest.fixture
def dev_set(corpus: Corpus) -> DevelopmentSet:
    return do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())


def develop(
    user: User, track: Track, text: str, on_commit: OnCommit, now: datetime | None = None
) -> Submission:
    with on_commit():
        submission = services.submit_run(
            user, track, text.encode(), phase=SubmissionPhase.DEVELOPMENT, now=now
        )
    submission.refresh_from_db()
    return submission


def test_a_development_run_is_scored_against_the_development_set(
    dev_set: DevelopmentSet, closed: Track, site: Site, participant: User, on_commit: OnCommit
) -> None:
    run = develop(participant, closed, DEV_RUN, on_commit)
    assert run.status == SubmissionStatus.SCORED, run.reason
    score = DevelopmentScore.objects.get(submission=run)
    # 8 gold words, 学习 split: 7 correct of 9 run words
    assert (score.true_words, score.test_words, score.correct) == (8, 9, 7)
    assert score.recall == pytest.approx(7 / 8)
    assert score.cr > 0
    assert score.gold_checksum == dev_set.gold_checksum
    assert score.signature
    assert not Score.objects.filter(submission=run).exists()


def test_a_run_of_the_test_text_is_refused_in_the_development_phase(
    dev_set: DevelopmentSet, closed: Track, site: Site, participant: User
) -> None:
    with pytest.raises(InvalidFile):
        services.submit_run(
            participant, closed, PERFECT_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT
        )


def test_development_runs_never_count_toward_the_test_run_limit(
    dev_set: DevelopmentSet,
    bakeoff: Bakeoff,
    closed: Track,
    site: Site,
    participant: User,
    on_commit: OnCommit,
) -> None:
    for _ in range(bakeoff.development_runs_per_day):
        develop(participant, closed, DEV_RUN, on_commit)
    with on_commit():
        tests = [services.submit_run(participant, closed, run.encode()) for run in RUNS[:2]]
    assert [t.run_number for t in tests] == [1, 2]
    assert closed.max_runs == 2


def test_it_limits_development_runs_per_day_in_the_bakeoff_time_zone(
    dev_set: DevelopmentSet,
    bakeoff: Bakeoff,
    closed: Track,
    site: Site,
    participant: User,
    on_commit: OnCommit,
) -> None:
    bakeoff.development_runs_per_day = 2
    bakeoff.save()
    # 15:59 UTC is 23:59 in Shanghai; 16:01 UTC is the next day there
    late = timezone.now().replace(hour=15, minute=59) - timedelta(days=2)
    for _ in range(2):
        develop(participant, closed, DEV_RUN, on_commit, now=late)
    with pytest.raises(RunLimitReached, match="2 development runs allowed per day") as refused:
        services.submit_run(
            participant, closed, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT, now=late
        )
    assert refused.value.fields["per"] == "day"
    next_day = develop(participant, closed, DEV_RUN, on_commit, now=late + timedelta(minutes=2))
    assert next_day.run_number == 3


def test_it_refuses_without_a_development_set(
    corpus: Corpus, closed: Track, site: Site, participant: User
) -> None:
    with pytest.raises(NotReleased, match="no development set"):
        services.submit_run(
            participant, closed, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT
        )


def test_it_refuses_a_site_not_registered(
    dev_set: DevelopmentSet, closed: Track, outsider: User
) -> None:
    with pytest.raises(NotRegistered):
        services.submit_run(outsider, closed, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT)


def test_it_refuses_a_development_gold_that_differs_from_its_text(corpus: Corpus) -> None:
    with pytest.raises(InvalidFile, match="differs from the development text"):
        do_add_development_set(corpus, text="我们在北京\n".encode(), gold="我们 在 上海\n".encode())
