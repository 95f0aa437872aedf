"""A run's scoring, a state machine under a lease, and its recovery.

A submission's status changes by conditional UPDATEs only: queued → scoring (claimed by a task,
with a lease its worker renews) → scored, or → failed with a translated reason code
(``bakeoff/failures.py``). A run whose lease ran out was held by a worker that died and is
queued again (``do_requeue_abandoned``); one left queued while the scoring queue is empty has its
task published again (``do_republish_lost``); the sweep takes what is stuck (``do_sweep_stuck``).
Uploads and withdrawals are in ``submissions.py``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, assert_never

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max, Q

import scoring

from .. import audit, clock, failures, lease, signals
from ..failures import Failure
from ..figures import stored as stored_figures
from ..models import (
    Corpus,
    GoldVersion,
    OutboxEntry,
    Score,
    Submission,
    SubmissionStatus,
)
from ..phase_table import ScoredAgainst, facts
from ..task_base import enqueue_on_commit
from ..task_names import SCORE_DOMAINS, SCORE_SUBMISSION
from . import development, uploads
from .domains import domain_labels_for, figures_per_domain, labels_changed_meanwhile
from .gold_index import gold_index_for
from .submissions import ACTIVE

logger = logging.getLogger(__name__)


def do_claim(submission_id: int, *, now: datetime, token: str = "") -> bool:
    """Move a submission to ``scoring`` under the claim ``token`` (the task's id) with a lease
    (``bakeoff/lease.py``).

    A run in ``scoring`` is taken again only when its lease ran out (its worker died), when it has
    none (claimed before leases), or by the same task redelivered.
    """
    scoring_state = Q(status=SubmissionStatus.SCORING)
    before_leases = scoring_state & Q(lease_until__isnull=True)
    free = lease.free(Q(status=SubmissionStatus.QUEUED), scoring_state, now=now, token=token)
    return bool(
        Submission.objects.filter(
            free | before_leases,
            pk=submission_id,
            attempts__lt=settings.BAKEOFF_MAX_SCORING_ATTEMPTS,
        ).update(
            status=SubmissionStatus.SCORING,
            attempts=F("attempts") + 1,
            status_changed_at=now,
            claim=token,
            lease_until=lease.until(now),
        )
    )


def do_mark_failed(
    submission_id: int, reason: Failure | str, *, now: datetime, internal: bool = False
) -> bool:
    """Fail an active submission with a reason for people (a ``Failure``, kept as its English
    text and as its code, for readers of other languages); ``internal`` when the platform is at
    fault (the organisers are told), not the run."""
    failure = reason if isinstance(reason, Failure) else Failure("")
    text = reason.english if isinstance(reason, Failure) else reason
    with transaction.atomic():
        changed = Submission.objects.filter(pk=submission_id, status__in=ACTIVE).update(
            status=SubmissionStatus.FAILED,
            reason=text,
            reason_code=failure.code,
            reason_params=failure.params,
            status_changed_at=now,
        )
        if changed:
            _announce_failure(submission_id, text, internal=internal, now=now)
    return bool(changed)


def _announce_failure(submission_id: int, reason: str, *, internal: bool, now: datetime) -> None:
    submission = Submission.objects.select_related("track__corpus__bakeoff", "site").get(
        pk=submission_id
    )
    _record_run(
        submission,
        audit.RUN_FAILED,
        now=now,
        reason=reason,
        internal=internal,
        **{audit.IN_LANGUAGES: {"reason": audit.in_languages(submission.reason_shown)}},
    )
    signals.run_failed.send(
        sender=Submission, submission=submission, reason=reason, internal=internal, now=now
    )


def do_score_submission(
    submission_id: int, *, now: datetime | None = None, token: str = ""
) -> Score | None:
    """Score a submission against its corpus's current gold; idempotent.

    Answers the stored score, or None when the submission was not waiting to be scored or the
    run failed (its status then says why). ``token`` is the claim of the task (its id).
    """
    now = now or clock.now()
    if not do_claim(submission_id, now=now, token=token):
        _fail_if_exhausted(submission_id, now=now)
        return None
    held = Submission.objects.filter(pk=submission_id, status=SubmissionStatus.SCORING)
    with lease.renewing(held, token):
        return _score_claimed(submission_id, now=now)


def _score_claimed(submission_id: int, *, now: datetime) -> Score | None:
    submission = Submission.objects.select_related("track__corpus__bakeoff", "site").get(
        pk=submission_id
    )
    match facts(submission.phase).scored_against:
        case ScoredAgainst.DEVELOPMENT_SET:
            _score_development(submission, now=now)
            return None
        case ScoredAgainst.GOLD:
            return _score_against_gold(submission, now=now)
        case unreachable:
            assert_never(unreachable)


def _score_against_gold(submission: Submission, *, now: datetime) -> Score | None:
    submission_id = submission.pk
    gold = submission.track.corpus.current_gold()
    if gold is None:
        do_mark_failed(submission_id, Failure(failures.NO_GOLD), now=now)
        return None
    if gold.needs_review:
        lines = len(gold.differences)
        do_mark_failed(
            submission_id, Failure(failures.GOLD_NEEDS_REVIEW, {"lines": lines}), now=now
        )
        return None
    try:
        details = scoring.score_run_details(
            uploads.read_stored(submission.file),
            gold_index_for(gold),
            aligned_lines=gold.aligned_lines,
        )
    except scoring.ScoringError as error:
        do_mark_failed(submission_id, failures.unscorable(error), now=now)
        return None
    corpus = submission.track.corpus
    extra = figures_per_domain(details, domain_labels_for(corpus), corpus.domain_labels_checksum)
    if submission.phase_facts.gold_public:  # the standing table marks a near copy of the gold
        extra = {**(extra or {}), "lines_as_gold": list(details.lines_as_gold())}
    with transaction.atomic():
        score = do_store_score(submission, gold, details.score, now=now, extra=extra)
        Submission.objects.filter(pk=submission_id, status=SubmissionStatus.SCORING).update(
            status=SubmissionStatus.SCORED,
            reason="",
            reason_code="",
            reason_params={},
            status_changed_at=clock.now(),
        )
        if labels_changed_meanwhile(corpus):
            # The labels came while this run was scored: its figures per domain, once stored.
            enqueue_on_commit(SCORE_DOMAINS, corpus.pk)
    return score


def _score_development(submission: Submission, *, now: datetime) -> None:
    """A development run is scored against the development set, never into a ``Score``."""
    with transaction.atomic():
        outcome = development.score_development(submission, now=now)
        if isinstance(outcome, Failure):
            do_mark_failed(submission.pk, outcome, now=now)
            return None
        scored = Submission.objects.filter(
            pk=submission.pk, status=SubmissionStatus.SCORING
        ).update(
            status=SubmissionStatus.SCORED,
            reason="",
            reason_code="",
            reason_params={},
            status_changed_at=clock.now(),
        )
        if scored:  # the receipt promised a mail once the run is scored
            signals.development_scored.send(
                sender=Submission, score=outcome, submission=submission, now=now
            )
    return None


def _fail_if_exhausted(submission_id: int, *, now: datetime) -> None:
    attempts = settings.BAKEOFF_MAX_SCORING_ATTEMPTS
    failure = Failure(failures.ATTEMPTS_EXHAUSTED, {"attempts": attempts})
    with transaction.atomic():
        changed = Submission.objects.filter(
            pk=submission_id, status__in=ACTIVE, attempts__gte=attempts
        ).update(
            status=SubmissionStatus.FAILED,
            reason=failure.english,
            reason_code=failure.code,
            reason_params=failure.params,
            status_changed_at=now,
        )
        if changed:
            _announce_failure(submission_id, failure.english, internal=True, now=now)


def do_store_score(
    submission: Submission,
    gold: GoldVersion,
    result: scoring.Score,
    *,
    now: datetime,
    metric: str = "word",
    extra: dict[str, Any] | None = None,
) -> Score:
    """One row per submission, metric and gold version; scores of older gold are superseded.

    ``extra`` goes into ``Score.result`` beside the library's result (the figures per domain).

    Sends ``signals.score_stored`` in the caller's transaction: the leaderboard ranks the track
    there, and the analysis and the balanced scores are queued for after the commit.
    """
    latest = submission.track.corpus.gold_versions.aggregate(n=Max("number"))["n"]
    is_latest = gold.number == latest
    figures = {**result.to_dict(), **(extra or {})}
    score, created = Score.objects.get_or_create(
        submission=submission,
        gold_version=gold,
        metric=metric,
        defaults={
            **stored_figures(figures),
            "result": figures,
            "signature": str(result.signature)[:500],
            "created_at": now,
            "superseded_at": None if is_latest else now,
        },
    )
    if is_latest:
        Score.objects.filter(
            submission=submission,
            metric=metric,
            superseded_at__isnull=True,
            gold_version__number__lt=gold.number,
        ).update(superseded_at=now)
    if created and metric == "word":
        audit.record_run(
            submission,
            audit.RUN_SCORED,
            now=now,
            gold_version=gold.number,
            gold_checksum=gold.checksum,
            run_checksum=submission.checksum,
            recall=score.recall,
            precision=score.precision,
            f=score.f,
            signature=score.signature,
        )
    signals.score_stored.send(sender=Score, score=score, submission=submission, gold=gold, now=now)
    return score


def _record_run(submission: Submission, action: str, *, now: datetime, **details: Any) -> None:
    """An entry of the platform's own doing about one run (no one acted)."""
    audit.record_run(
        submission,
        action,
        now=now,
        attempts=submission.attempts,
        **details,
    )


# What a run queued again is reset to: no worker holds it any more.
_BACK_IN_QUEUE = {"status": SubmissionStatus.QUEUED, "claim": "", "lease_until": None}


def _requeue(pk: int, unchanged: Q, *, now: datetime, cause: str = "") -> bool:
    """Publish the scoring task of run ``pk`` again if it is still as ``unchanged`` says (a
    conditional UPDATE: a worker that took it meanwhile wins). With a ``cause`` the run goes
    back to the queue, recorded in the audit trail; without, only its status time moves (its
    message was lost, its state is unchanged)."""
    with transaction.atomic():
        moved = Submission.objects.filter(unchanged, pk=pk).update(
            status_changed_at=now, **(_BACK_IN_QUEUE if cause else {})
        )
        if moved:
            if cause:
                submission = Submission.objects.select_related(
                    "track__corpus__bakeoff", "site"
                ).get(pk=pk)
                _record_run(submission, audit.RUN_REQUEUED, now=now, cause=cause)
            enqueue_on_commit(SCORE_SUBMISSION, pk)
    return bool(moved)


def do_sweep_stuck(*, now: datetime | None = None) -> list[int]:
    """Queue again every submission left in queued/scoring too long; fail those tried too often."""
    now = now or clock.now()
    cutoff = now - timedelta(seconds=settings.BAKEOFF_STUCK_AFTER_SECONDS)
    requeued = []
    stuck = Submission.objects.filter(status__in=ACTIVE, status_changed_at__lt=cutoff).exclude(
        lease_until__gte=now  # still being scored: its worker renews the lease
    )
    for pk, status, changed in stuck.values_list("pk", "status", "status_changed_at"):
        _fail_if_exhausted(pk, now=now)
        if _requeue(pk, Q(status=status, status_changed_at=changed), now=now, cause="stuck"):
            requeued.append(pk)
    if requeued:
        logger.warning("re-queued stuck submissions %s", requeued)
    return requeued


def do_requeue_abandoned(*, now: datetime | None = None) -> list[int]:
    """Queue again every run in ``scoring`` whose lease ran out: the worker that held it died."""
    now = now or clock.now()
    abandoned = Submission.objects.filter(status=SubmissionStatus.SCORING, lease_until__lt=now)
    requeued = [
        pk
        for pk, claim in abandoned.values_list("pk", "claim")
        if _requeue(
            pk,
            Q(status=SubmissionStatus.SCORING, claim=claim, lease_until__lt=now),
            now=now,
            cause="worker_lost",
        )
    ]
    if requeued:
        logger.warning("re-queued runs whose worker died %s", requeued)
    return requeued


def do_republish_lost(*, now: datetime | None = None, queue_empty: bool) -> list[int]:
    """Publish again the scoring task of every run still ``queued`` a while after its task was
    sent, when nothing waits in the scoring queue: its message went down with a worker that had
    received it but not started it (the broker gives such a message back only after its
    visibility timeout, hours later). A second message for a run being scored does nothing:
    the claim is conditional."""
    if not queue_empty:
        return []
    now = now or clock.now()
    cutoff = now - timedelta(seconds=settings.BAKEOFF_REPUBLISH_QUEUED_AFTER_SECONDS)
    waiting = Submission.objects.filter(
        status=SubmissionStatus.QUEUED, status_changed_at__lt=cutoff
    )
    republished = []
    for pk, changed in waiting.values_list("pk", "status_changed_at")[:200]:
        if OutboxEntry.objects.filter(task=SCORE_SUBMISSION, args=[pk]).exists():
            continue  # still to be published: the outbox has it
        unchanged = Q(status=SubmissionStatus.QUEUED, status_changed_at=changed)
        if _requeue(pk, unchanged, now=now):
            republished.append(pk)
    if republished:
        logger.warning("published again the tasks of runs left queued %s", republished)
    return republished


def do_score_domains(corpus_id: int, *, now: datetime | None = None) -> int:
    """Add the figures per domain to every current word score of the corpus that lacks them for
    its current labels; idempotent. Answers how many scores were updated."""
    corpus = Corpus.objects.get(pk=corpus_id)
    labels = domain_labels_for(corpus)
    if labels is None:
        return 0
    scores = (
        Score.objects.filter(
            submission__track__corpus=corpus, metric="word", superseded_at__isnull=True
        )
        .select_related("submission", "gold_version__corpus")
        .order_by("pk")
    )
    updated = 0
    for score in scores:
        if score.result.get("domain_labels") == corpus.domain_labels_checksum:
            continue
        gold = score.gold_version
        run = scoring.score_run_details(
            uploads.read_stored(score.submission.file),
            gold_index_for(gold),
            aligned_lines=gold.aligned_lines,
        )
        if run.score.correct != score.correct or run.score.test_words != score.test_words:
            logger.warning("score %d scores differently now: no figures per domain", score.pk)
            continue
        found = figures_per_domain(run, labels, corpus.domain_labels_checksum)
        if found is None:
            continue
        with transaction.atomic():
            locked = Score.objects.select_for_update().get(pk=score.pk)
            locked.result = {**locked.result, **found}
            locked.save(update_fields=["result"])
        updated += 1
    return updated
