"""Committees of a corpus: ``check_*`` decide, ``do_*`` change data (docs/measures/balanced-f.md).

- ``do_start_committee``: the organiser asks for a committee of a corpus's current gold; a new
  version is queued (one build at a time per corpus, a database constraint).
- ``do_build_committee`` (a task): for a CRF committee, queues one task per member (a Celery
  group: members train in parallel on whatever ``committee`` workers are free, on any machine);
  for a committee of runs, scores the corpus's runs as members in this task.
- ``do_train_member`` (a task per member): trains one member and stores its vote; the members
  done / K are the build's progress, and the last member to finish queues the assembly (the
  chord's join is counted in the database, so it needs no result backend and a member whose
  worker died is trained again alone, the others' votes kept).
- ``do_assemble_committee`` (a task): the difficulty vector from the votes; the result becomes
  the current committee of that gold version and its balanced scores are queued
  (``balanced.do_apply_committee``).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

import numpy as np
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q
from django.utils.translation import gettext_lazy as _

import scoring
from bakeoff import audit, clock, lease
from bakeoff.access import User
from bakeoff.audit_text import COMMITTEE, Subject
from bakeoff.errors import Refused, interpolate
from bakeoff.failures import Failure
from bakeoff.models import Corpus, GoldVersion
from bakeoff.services import gold_index_for, uploads
from bakeoff.task_base import enqueue_on_commit
from scoring import score_run_details
from scoring.psychometric import committee as library
from scoring.psychometric import difficulty as library_difficulty

from .. import failures, signals
from ..models import (
    ACTIVE,
    Committee,
    CommitteeKind,
    CommitteeMember,
    CommitteeStatus,
    MemberStatus,
)
from ..task_names import APPLY_COMMITTEE, ASSEMBLE_COMMITTEE, BUILD_COMMITTEE, TRAIN_MEMBER
from .words import corpus_training_sentences, gold_words, hardest_words, member_scores

logger = logging.getLogger(__name__)

MAX_K = 64
MAX_ATTEMPTS = 3


def current_committee(gold: GoldVersion | int) -> Committee | None:
    """The newest complete committee of a gold version (without its difficulty data)."""
    return (
        Committee.objects.filter(gold_version=gold, status=CommitteeStatus.COMPLETE)
        .defer("data")
        .order_by("-number")
        .first()
    )


def check_committee(corpus: Corpus, kind: str, k: int) -> GoldVersion:
    """The gold version a new committee of ``corpus`` would rate, or Refused saying why not."""
    gold = corpus.current_gold()
    if gold is None:
        raise Refused(_("The corpus has no gold standard yet."))
    if gold.needs_review:
        raise Refused(
            interpolate(
                _(
                    "Gold version %(number)s differs from the test text on some "
                    "lines: accept them or upload a corrected gold first."
                ),
                number=gold.number,
            )
        )
    if kind not in CommitteeKind.values:
        raise Refused(interpolate(_("Unknown committee kind %(kind)s."), kind=repr(kind)))
    if not 1 <= k <= MAX_K:
        raise Refused(interpolate(_("A committee has 1 to %(MAX_K)s members."), MAX_K=MAX_K))
    if kind == CommitteeKind.CRF and not corpus.training_text.name:
        raise Refused(
            _(
                "This corpus has no segmented training text (only a word list): build the "
                "committee from its scored runs instead."
            )
        )
    if kind == CommitteeKind.RUNS and not member_scores(gold).exists():
        raise Refused(
            interpolate(
                _("No run of this corpus is scored against gold version %(number)s yet."),
                number=gold.number,
            )
        )
    if Committee.objects.filter(corpus=corpus, status__in=ACTIVE).exists():
        raise Refused(_("A committee of this corpus is being built; wait until it finishes."))
    return gold


def do_start_committee(
    corpus: Corpus,
    *,
    kind: str,
    k: int = library.DEFAULT_K,
    seed: int = 1,
    max_iterations: int | None = None,
    by: User | None = None,
    now: datetime | None = None,
) -> Committee:
    """Queue a new committee version for the corpus's current gold; the build runs as a task."""
    now = now or clock.now()
    gold = check_committee(corpus, kind, k)
    for _attempt in range(10):
        taken = Committee.objects.filter(gold_version=gold).aggregate(n=Max("number"))["n"]
        try:
            with transaction.atomic():
                committee = Committee.objects.create(
                    corpus=corpus,
                    gold_version=gold,
                    number=(taken or 0) + 1,
                    kind=kind,
                    k=k,
                    seed=seed,
                    max_iterations=max_iterations,
                    requested_at=now,
                    requested_by=by if isinstance(by, AbstractBaseUser) else None,
                )
                audit.record(
                    corpus.bakeoff,
                    audit.COMMITTEE_REQUESTED,
                    Subject(
                        COMMITTEE,
                        {
                            "corpus": corpus.abbreviation,
                            "gold": gold.number,
                            "committee": committee.number,
                        },
                    ),
                    actor=by,
                    now=now,
                    committee=committee.pk,
                    kind=kind,
                    k=k,
                    seed=seed,
                    gold_checksum=gold.checksum,
                )
                enqueue_on_commit(BUILD_COMMITTEE, committee.pk)
            return committee
        except IntegrityError:
            # Another request took the number, or started a build of this corpus first.
            if Committee.objects.filter(corpus=corpus, status__in=ACTIVE).exists():
                break
    raise Refused(_("A committee of this corpus is being built; wait until it finishes."))


def do_mark_committee_failed(committee_id: int, reason: Failure, *, now: datetime) -> bool:
    """Fail an active committee with a reason for people (kept as its English text and as its
    code, for readers of other languages)."""
    with transaction.atomic():
        failed = Committee.objects.filter(pk=committee_id, status__in=ACTIVE).update(
            status=CommitteeStatus.FAILED,
            reason=reason.english,
            reason_code=reason.code,
            reason_params=reason.params,
            finished_at=now,
            claim="",
            lease_until=None,
        )
        if failed:
            _announce(committee_id, now=now)
    return bool(failed)


def _claimable(now: datetime, token: str) -> Q:
    # A running committee holds no lease while its members train (each holds its own): it is
    # taken again only once the lease of the task that built or assembled it ran out.
    return lease.free(
        Q(status=CommitteeStatus.QUEUED), Q(status=CommitteeStatus.RUNNING), now=now, token=token
    )


def _fail_if_exhausted(committee_id: int, *, now: datetime) -> None:
    if Committee.objects.filter(
        _claimable(now, ""), pk=committee_id, attempts__gte=MAX_ATTEMPTS
    ).exists():
        failure = failures.failure(failures.ATTEMPTS_EXHAUSTED, {"attempts": MAX_ATTEMPTS})
        do_mark_committee_failed(committee_id, failure, now=now)


def _announce(committee_id: int, *, now: datetime) -> None:
    committee = Committee.objects.select_related("corpus__bakeoff", "gold_version").get(
        pk=committee_id
    )
    corpus, gold = committee.corpus, committee.gold_version
    audit.record(
        corpus.bakeoff,
        audit.COMMITTEE_FINISHED,
        Subject(
            COMMITTEE,
            {"corpus": corpus.abbreviation, "gold": gold.number, "committee": committee.number},
        ),
        now=now,
        committee=committee.pk,
        status=committee.status,
        reason=committee.reason,
    )
    signals.committee_finished.send(sender=Committee, committee=committee, now=now)


def _claim(committee_id: int, *, now: datetime, token: str) -> bool:
    """queued → running under the claim ``token`` with a lease; a build or an assembly whose
    worker died (its lease ran out) is taken again, a few times."""
    return bool(
        Committee.objects.filter(
            _claimable(now, token), pk=committee_id, attempts__lt=MAX_ATTEMPTS
        ).update(
            status=CommitteeStatus.RUNNING,
            attempts=F("attempts") + 1,
            members_done=CommitteeMember.objects.filter(
                committee=committee_id, status=MemberStatus.DONE
            ).count(),
            claim=token,
            lease_until=lease.until(now),
        )
    )


def _held(committee_id: int) -> Any:
    return Committee.objects.filter(pk=committee_id, status=CommitteeStatus.RUNNING)


def do_build_committee(
    committee_id: int, *, now: datetime | None = None, token: str = ""
) -> Committee | None:
    """Build a queued committee; idempotent. Answers it once complete (runs) or once its members
    are queued (CRF), else None. ``token`` is the claim of the task (its id)."""
    now = now or clock.now()
    if not _claim(committee_id, now=now, token=token):
        _fail_if_exhausted(committee_id, now=now)
        return None
    committee = Committee.objects.select_related("corpus", "gold_version").get(pk=committee_id)
    if committee.kind == CommitteeKind.CRF:
        return _queue_members(committee, now=now)
    gold = committee.gold_version

    def progress(done: int, total: int) -> None:
        _held(committee_id).update(members_done=done, k=total)

    try:
        with lease.renewing(_held(committee_id), token):
            result = library.committee_from_runs(_scored_members(gold, progress))
    except scoring.ScoringError as error:
        do_mark_committee_failed(committee_id, failures.not_built(error), now=now)
        return None
    return _complete(committee_id, gold, result)


def _queue_members(committee: Committee, *, now: datetime) -> Committee:
    """One task per member waiting, written to the outbox in this transaction and published once
    it commits; members already done (a build taken again) keep their votes, and members training
    under a live lease are left to their workers. The committee's lease is given back: from now
    on each member holds its own."""
    with transaction.atomic():
        for number in range(1, committee.k + 1):
            CommitteeMember.objects.get_or_create(committee=committee, number=number)
        # Members whose worker died (their lease ran out) wait again.
        committee.members.filter(lease.ran_out(Q(status=MemberStatus.RUNNING), now=now)).update(
            status=MemberStatus.QUEUED, claim="", lease_until=None
        )
        pending = list(
            committee.members.filter(status=MemberStatus.QUEUED).values_list("pk", flat=True)
        )
        for pk in pending:
            enqueue_on_commit(TRAIN_MEMBER, pk)
        if not committee.members.exclude(status=MemberStatus.DONE).exists():
            enqueue_on_commit(ASSEMBLE_COMMITTEE, committee.pk)
        _held(committee.pk).update(claim="", lease_until=None)
    return committee


def do_train_member(
    member_id: int, *, now: datetime | None = None, token: str = ""
) -> CommitteeMember | None:
    """Train one member of a running CRF committee and store its vote; idempotent.

    Answers the member once done, or None when it was not waiting to be trained: it is taken
    when queued, when its lease ran out (its worker died), or by the same task redelivered.
    """
    now = now or clock.now()
    free = lease.free(
        Q(status=MemberStatus.QUEUED), Q(status=MemberStatus.RUNNING), now=now, token=token
    )
    taken = CommitteeMember.objects.filter(
        free, pk=member_id, attempts__lt=MAX_ATTEMPTS, committee__status=CommitteeStatus.RUNNING
    ).update(
        status=MemberStatus.RUNNING,
        attempts=F("attempts") + 1,
        claim=token,
        lease_until=lease.until(now),
    )
    if not taken:
        _fail_if_member_exhausted(member_id, now=now)
        return None
    member = CommitteeMember.objects.select_related(
        "committee__corpus", "committee__gold_version"
    ).get(pk=member_id)
    committee = member.committee
    held = CommitteeMember.objects.filter(pk=member_id, status=MemberStatus.RUNNING)
    try:
        with lease.renewing(held, token):
            vote = library.train_member(
                corpus_training_sentences(committee.corpus),
                gold_index_for(committee.gold_version),
                number=member.number,
                k=committee.k,
                seed=committee.seed,
                max_iterations=committee.max_iterations,
            )
    except scoring.ScoringError as error:
        do_mark_committee_failed(committee.pk, failures.not_built(error), now=now)
        return None
    with transaction.atomic():
        # Members finishing together take turns here, so exactly one sees the last vote arrive.
        locked = Committee.objects.select_for_update().get(pk=committee.pk)
        if locked.status != CommitteeStatus.RUNNING:
            return None
        stored = CommitteeMember.objects.filter(pk=member_id, status=MemberStatus.RUNNING).update(
            status=MemberStatus.DONE,
            member=vote.member.to_dict(),
            correct=np.packbits(vote.correct).tobytes(),
            finished_at=clock.now(),
            lease_until=None,
        )
        done = locked.members.filter(status=MemberStatus.DONE).count()
        locked.members_done = done
        locked.save(update_fields=["members_done"])
        if stored and done == locked.k:
            enqueue_on_commit(ASSEMBLE_COMMITTEE, committee.pk)
    member.refresh_from_db()
    return member


def do_mark_member_failed(member_id: int, reason: Failure, *, now: datetime) -> bool:
    """A member that crashed fails its whole committee, with a reason for people."""
    committee_id = (
        CommitteeMember.objects.filter(pk=member_id).values_list("committee_id", flat=True).first()
    )
    return committee_id is not None and do_mark_committee_failed(committee_id, reason, now=now)


def _fail_if_member_exhausted(member_id: int, *, now: datetime) -> None:
    exhausted = CommitteeMember.objects.filter(
        pk=member_id, attempts__gte=MAX_ATTEMPTS, status=MemberStatus.QUEUED
    ).values_list("committee_id", "number")
    for committee_id, number in exhausted:
        failure = failures.failure(
            failures.MEMBER_ATTEMPTS_EXHAUSTED, {"member": number, "attempts": MAX_ATTEMPTS}
        )
        do_mark_committee_failed(committee_id, failure, now=now)


def do_requeue_abandoned(*, now: datetime | None = None) -> tuple[list[int], list[int]]:
    """Queue again every build or assembly and every member training whose lease ran out: the
    worker that held it died (the recovery loop of every worker calls this). Answers the
    committees and the members queued again."""
    now = now or clock.now()
    committees: list[int] = []
    members: list[int] = []
    dead = lease.ran_out(Q(status=CommitteeStatus.RUNNING), now=now)
    for pk, claim in Committee.objects.filter(dead).values_list("pk", "claim"):
        with transaction.atomic():
            if Committee.objects.filter(dead, pk=pk, claim=claim).update(
                status=CommitteeStatus.QUEUED, claim="", lease_until=None
            ):
                enqueue_on_commit(BUILD_COMMITTEE, pk)
                committees.append(pk)
    dead = lease.ran_out(Q(status=MemberStatus.RUNNING), now=now)
    for pk, claim in CommitteeMember.objects.filter(dead).values_list("pk", "claim"):
        with transaction.atomic():
            if CommitteeMember.objects.filter(dead, pk=pk, claim=claim).update(
                status=MemberStatus.QUEUED, claim="", lease_until=None
            ):
                enqueue_on_commit(TRAIN_MEMBER, pk)
                members.append(pk)
    if committees or members:
        logger.warning(
            "re-queued committees %s and members %s whose worker died", committees, members
        )
    return committees, members


def do_assemble_committee(
    committee_id: int, *, now: datetime | None = None, token: str = ""
) -> Committee | None:
    """The difficulty vector from the votes of every member; idempotent. Answers the committee
    once complete, else None. The assembly holds the committee's lease while it works."""
    now = now or clock.now()
    committee = Committee.objects.select_related("corpus", "gold_version").get(pk=committee_id)
    members = list(committee.members.filter(status=MemberStatus.DONE).order_by("number"))
    if committee.status != CommitteeStatus.RUNNING or len(members) != committee.k:
        return None
    # Held by the assembly, unless another task holds it under a live lease.
    free = lease.free(Q(lease_until__isnull=True), Q(), now=now, token=token)
    if not _held(committee_id).filter(free).update(claim=token, lease_until=lease.until(now)):
        return None
    with lease.renewing(_held(committee_id), token):
        return _assemble(committee, members)


def _assemble(committee: Committee, members: list[CommitteeMember]) -> Committee | None:
    gold = committee.gold_version
    index = gold_index_for(gold)
    votes = [
        library.MemberVote(
            library_difficulty.Member.from_dict(m.member or {}),
            np.unpackbits(
                np.frombuffer(bytes(m.correct or b""), np.uint8), count=index.true_words
            ).astype(bool),
        )
        for m in members
    ]
    result = library.crf_committee(
        votes,
        index,
        corpus_training_sentences(committee.corpus),
        seed=committee.seed,
        max_iterations=committee.max_iterations,
    )
    return _complete(committee.pk, gold, result)


def _complete(
    committee_id: int, gold: GoldVersion, result: library_difficulty.Committee
) -> Committee | None:
    now = clock.now()
    with transaction.atomic():
        done = Committee.objects.filter(pk=committee_id, status=CommitteeStatus.RUNNING).update(
            status=CommitteeStatus.COMPLETE,
            k=result.k,
            members_done=result.k,
            data=result.to_dict(),
            signature=result.signature[:300],
            hardest=hardest_words(gold_words(gold), result.difficulty),
            finished_at=now,
            reason="",
            claim="",
            lease_until=None,
        )
        if done:
            enqueue_on_commit(APPLY_COMMITTEE, committee_id)
            _announce(committee_id, now=now)
    return Committee.objects.get(pk=committee_id) if done else None


def _scored_members(gold: GoldVersion, progress: library.Progress) -> dict[str, Any]:
    scores = list(member_scores(gold))
    index = gold_index_for(gold)
    members = {}
    for done, score in enumerate(scores, 1):
        submission = score.submission
        members[f"{submission.track.slug} {submission.label}"] = score_run_details(
            uploads.read_stored(submission.file), index, aligned_lines=gold.aligned_lines
        )
        progress(done, len(scores))
    return members
