"""A CRF committee is built by one task per member (each through the outbox) and assembled from
their votes: the same committee as the library builds at once, and a dead member is trained again
alone."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from bakeoff import lease
from bakeoff.models import Corpus
from bakeoff.services import gold_index_for
from psychometric import services, tasks
from psychometric.models import Committee, CommitteeMember, CommitteeStatus, MemberStatus
from scoring.psychometric import committee as library
from tests.hints import OnCommit

from .factories import TRAINING, build

pytestmark = pytest.mark.django_db


def counting_members(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the members trained from now on, in order."""
    trained: list[int] = []
    train = library.train_member

    def counting(*args: Any, **kwargs: Any) -> library.MemberVote:
        trained.append(kwargs["number"])
        return train(*args, **kwargs)

    monkeypatch.setattr(library, "train_member", counting)
    return trained


def test_each_member_is_trained_by_its_own_task(
    corpus: Corpus, on_commit: OnCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[Any, ...]] = []
    queue = tasks.train_member.delay_on_commit

    def recording(*args: Any) -> None:
        sent.append(args)
        queue(*args)

    monkeypatch.setattr(tasks.train_member, "delay_on_commit", recording)
    committee = build(corpus, on_commit, k=3)
    members = CommitteeMember.objects.filter(committee=committee)
    assert sent == [(m.pk,) for m in members]
    assert [(m.number, m.status, m.attempts) for m in members] == [
        (1, "done", 1),
        (2, "done", 1),
        (3, "done", 1),
    ]


def test_the_assembled_committee_is_the_one_the_library_builds_at_once(
    corpus: Corpus, on_commit: OnCommit
) -> None:
    committee = build(corpus, on_commit, k=3, seed=7)
    at_once = library.build_committee(
        library.training_sentences(TRAINING),
        gold_index_for(committee.gold_version),
        k=3,
        seed=7,
        max_iterations=10,
        max_workers=1,
    )
    assert committee.data == at_once.to_dict()


def test_a_dead_member_is_trained_again_without_the_others(
    corpus: Corpus, on_commit: OnCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    committee = build(corpus, on_commit, k=3)
    before = committee.data
    # As a worker killed while training member 2 leaves the build: the others' votes are stored.
    Committee.objects.filter(pk=committee.pk).update(status=CommitteeStatus.RUNNING, data=None)
    dead = CommitteeMember.objects.get(committee=committee, number=2)
    now = timezone.now()
    CommitteeMember.objects.filter(pk=dead.pk).update(
        status=MemberStatus.RUNNING,
        claim="dead-task",
        lease_until=lease.until(now),
        member=None,
        correct=None,
    )
    trained = counting_members(monkeypatch)
    # Another task while its lease is live: left alone.
    assert services.do_train_member(dead.pk, now=now, token="another-task") is None
    # The same task, handed back by the broker after its worker died: trained again, alone.
    with on_commit():
        assert services.do_train_member(dead.pk, now=now, token="dead-task") is not None
    assert trained == [2]
    committee.refresh_from_db()
    assert committee.status == CommitteeStatus.COMPLETE
    assert committee.data == before
    assert CommitteeMember.objects.get(pk=dead.pk).attempts == 2


def test_a_build_taken_again_keeps_the_votes_of_members_done(
    corpus: Corpus, on_commit: OnCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    committee = build(corpus, on_commit, k=3)
    long_ago = timezone.now() - timedelta(hours=1)
    Committee.objects.filter(pk=committee.pk).update(
        status=CommitteeStatus.QUEUED, lease_until=long_ago, data=None
    )
    CommitteeMember.objects.filter(committee=committee, number=3).update(
        status=MemberStatus.RUNNING, claim="dead-task", lease_until=long_ago
    )
    trained = counting_members(monkeypatch)
    with on_commit():
        services.do_build_committee(committee.pk)
    assert trained == [3]
    committee.refresh_from_db()
    assert committee.status == CommitteeStatus.COMPLETE and committee.members_done == 3
