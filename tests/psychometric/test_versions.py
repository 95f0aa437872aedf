"""Versions are never mixed: a new gold needs its own committee; a live build is not taken twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from bakeoff import services as bakeoff_services
from bakeoff.models import Corpus, Site, Track
from leaderboard.models import TrackStanding
from psychometric import services
from psychometric.models import BALANCED, Committee, CommitteeStatus
from tests.factories import GOLD, WORKED_RUN, upload
from tests.hints import OnCommit

from .factories import build

pytestmark = pytest.mark.django_db


def running(corpus: Corpus, *, lease_left: timedelta) -> Committee:
    """A committee being built by the task ``build-task``, its lease running out in
    ``lease_left``."""
    gold = corpus.current_gold()
    assert gold is not None
    return Committee.objects.create(
        corpus=corpus,
        gold_version=gold,
        number=1,
        kind="crf",
        k=2,
        status=CommitteeStatus.RUNNING,
        attempts=1,
        claim="build-task",
        lease_until=timezone.now() + lease_left,
        requested_at=timezone.now(),
    )


def test_a_new_gold_version_is_not_rated_by_the_old_committee(
    corpus: Corpus, closed: Track, site: Site, participant: User, on_commit: OnCommit
) -> None:
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    old = build(corpus, on_commit)
    assert TrackStanding.objects.get(submission=mine).f_b is not None
    with on_commit():
        gold = bakeoff_services.do_add_gold_version(corpus, GOLD.replace("工作", "工 作").encode())
    assert TrackStanding.objects.get(submission=mine).f_b is None
    assert not mine.scores.filter(metric=BALANCED, gold_version=gold).exists()
    assert services.current_committee(gold) is None
    new = build(corpus, on_commit)
    assert (new.gold_version, new.number) == (gold, 1) and old.gold_version != gold
    row = mine.scores.get(metric=BALANCED, gold_version=gold)
    assert row.result["committee_id"] == new.pk
    assert mine.scores.get(metric=BALANCED, gold_version=old.gold_version).superseded_at


def test_a_live_build_is_not_taken_by_another_task(corpus: Corpus) -> None:
    committee = running(corpus, lease_left=timedelta(seconds=20))
    assert services.do_build_committee(committee.pk, token="another-task") is None
    committee.refresh_from_db()
    assert (committee.status, committee.attempts) == (CommitteeStatus.RUNNING, 1)


def test_a_build_whose_worker_died_is_taken_again(corpus: Corpus, on_commit: OnCommit) -> None:
    committee = running(corpus, lease_left=-timedelta(seconds=1))
    with on_commit():
        assert services.do_build_committee(committee.pk, now=timezone.now()) is not None
    committee.refresh_from_db()
    assert (committee.status, committee.attempts) == (CommitteeStatus.COMPLETE, 2)
