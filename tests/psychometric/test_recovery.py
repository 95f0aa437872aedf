"""A committee's build and its members are held under a lease, as a run's scoring is
(bakeoff/lease.py): a worker that dies mid-job stops renewing it, and the recovery loop queues the
job again once it ran out; a job taken too often fails with a reason in the reader's language."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation
from pytest_django import Settings

from bakeoff import lease
from bakeoff.models import Corpus
from psychometric import failures, services, tasks
from psychometric.models import Committee, CommitteeMember, CommitteeStatus, MemberStatus
from scoring.psychometric import committee as library
from tests.hints import OnCommit

from .factories import build

pytestmark = pytest.mark.django_db


def test_a_member_whose_worker_died_is_trained_again_once_its_lease_runs_out(
    corpus: Corpus, on_commit: OnCommit, settings: Settings
) -> None:
    committee = build(corpus, on_commit, k=2)
    before = committee.data
    # As a worker killed while training member 1 leaves it: running, under a lease nobody renews.
    Committee.objects.filter(pk=committee.pk).update(status=CommitteeStatus.RUNNING, data=None)
    dead = CommitteeMember.objects.get(committee=committee, number=1)
    now = timezone.now()
    CommitteeMember.objects.filter(pk=dead.pk).update(
        status=MemberStatus.RUNNING,
        claim="dead-task",
        lease_until=lease.until(now),
        member=None,
        correct=None,
    )
    with on_commit():
        assert services.do_requeue_abandoned(now=now) == ([], [])  # the lease is live
    later = now + timedelta(seconds=settings.BAKEOFF_SCORING_LEASE_SECONDS + 1)
    with on_commit():  # the member's task runs again, then the assembly
        assert services.do_requeue_abandoned(now=later) == ([], [dead.pk])
    committee.refresh_from_db()
    assert committee.status == CommitteeStatus.COMPLETE and committee.data == before
    member = CommitteeMember.objects.get(pk=dead.pk)
    assert (member.status, member.attempts, member.lease_until) == (MemberStatus.DONE, 2, None)


def test_a_build_whose_worker_died_is_built_again_once_its_lease_runs_out(
    corpus: Corpus, on_commit: OnCommit, settings: Settings
) -> None:
    committee = build(corpus, on_commit, kind="runs")
    before = committee.data
    now = timezone.now()
    Committee.objects.filter(pk=committee.pk).update(
        status=CommitteeStatus.RUNNING,
        data=None,
        claim="dead-task",
        lease_until=lease.until(now),
    )
    assert services.do_build_committee(committee.pk, now=now, token="another-task") is None
    later = now + timedelta(seconds=settings.BAKEOFF_SCORING_LEASE_SECONDS + 1)
    with on_commit():
        assert services.do_requeue_abandoned(now=later) == ([committee.pk], [])
    committee.refresh_from_db()
    assert committee.status == CommitteeStatus.COMPLETE and committee.data == before
    assert (committee.attempts, committee.claim, committee.lease_until) == (2, "", None)


def test_a_build_started_too_often_fails_with_a_reason_in_the_readers_language(
    corpus: Corpus, on_commit: OnCommit
) -> None:
    committee = build(corpus, on_commit, kind="runs")
    long_ago = timezone.now() - timedelta(hours=1)
    Committee.objects.filter(pk=committee.pk).update(
        status=CommitteeStatus.RUNNING, attempts=3, claim="dead-task", lease_until=long_ago
    )
    with on_commit():
        assert services.do_build_committee(committee.pk) is None
    committee.refresh_from_db()
    assert committee.status == CommitteeStatus.FAILED
    assert committee.reason_code == failures.ATTEMPTS_EXHAUSTED
    assert committee.reason == "The build was started 3 times without finishing."
    with translation.override("zh-hans"):
        assert str(committee.reason_shown) == "委员会构建已开始 3 次仍未完成。"
    with translation.override("zh-hant"):
        assert str(committee.reason_shown) == "委員會構建已開始 3 次仍未完成。"


def test_a_member_that_crashes_fails_its_committee_with_a_translated_reason(
    corpus: Corpus, on_commit: OnCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(library, "train_member", crash)
    committee = build(corpus, on_commit, k=2)
    assert committee.status == CommitteeStatus.FAILED
    assert committee.reason_code == failures.MEMBER_INTERNAL_ERROR
    assert committee.reason_params == {"error": "RuntimeError"}
    with translation.override("zh-hans"):
        assert str(committee.reason_shown) == "训练委员会成员时发生内部错误（RuntimeError）。"
    assert tasks.train_member.name == "psychometric.tasks.train_member"


def test_a_reason_stored_before_the_codes_is_shown_as_it_was(corpus: Corpus) -> None:
    gold = corpus.current_gold()
    assert gold is not None
    committee = Committee.objects.create(
        corpus=corpus,
        gold_version=gold,
        number=1,
        kind="runs",
        k=0,
        status=CommitteeStatus.FAILED,
        reason="Member 2 was started 3 times without finishing.",
        requested_at=timezone.now(),
    )
    with translation.override("zh-hans"):
        assert committee.reason_shown == "Member 2 was started 3 times without finishing."
