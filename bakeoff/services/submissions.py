"""Runs: the checks at upload, acceptance under the run limit, and the scoring state machine.
What differs by phase (who may submit, the text a run segments, its limit, what it is scored
against) is read from the phase's row (``phases.PHASES``, ``phase_table.FACTS``).

A submission's status changes only here, by conditional UPDATEs:
queued → scoring → scored, or → failed with a reason. A new gold version queues runs again.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, assert_never

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connections, transaction
from django.db.models import F, Max, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django_stubs_ext import StrOrPromise

import scoring
from bakeoff.errors import interpolate

from .. import audit, clock, failures, signals, tasks
from ..access import User
from ..audit_text import Subject
from ..errors import (
    DeadlinePassed,
    DescriptionMissing,
    GoldAsRun,
    IdenticalRun,
    InvalidFields,
    InvalidFile,
    NotAllowed,
    NotRegistered,
    NotReleased,
    Refused,
    RunLimitReached,
    UploadTooLarge,
)
from ..failures import Failure
from ..figures import stored as stored_figures
from ..models import (
    Condition,
    GoldVersion,
    OutboxEntry,
    Score,
    Site,
    Submission,
    SubmissionKind,
    SubmissionPhase,
    SubmissionStatus,
    Track,
)
from ..phase_table import Limit, ScoredAgainst, facts
from ..validators import check_text
from . import phases, uploads
from .corpora import gold_index_for
from .domains import domain_labels_for, figures_per_domain, labels_changed_meanwhile
from .instants import stamp
from .phases import check_can_submit
from .uploads import Chunked

logger = logging.getLogger(__name__)

ACTIVE = (SubmissionStatus.QUEUED, SubmissionStatus.SCORING)
DESCRIPTION_MAX = 2000

# The rule behind each refusal, as the audit trail names it.
REFUSAL_RULES: dict[type[Refused], str] = {
    DeadlinePassed: "late",
    RunLimitReached: "limit",
    IdenticalRun: "identical",
    GoldAsRun: "gold",
    InvalidFile: "validation",
    UploadTooLarge: "size",
    DescriptionMissing: "description",
    InvalidFields: "text",
    NotRegistered: "not_registered",
    NotReleased: "not_released",
}


def check_description(track: Track, description: str) -> str:
    """The run's description, trimmed: required on an open track, where it is the statement of
    the extra resources the system uses; text the pages' forms would refuse is refused in their
    words (``validators.check_text``)."""
    check_text(description=description)
    description = description.strip()
    if not description and track.condition == Condition.OPEN:
        raise DescriptionMissing(
            interpolate(
                _(
                    "%(track)s is an open track: describe the system and the resources it uses "
                    "(dictionaries, corpora, pre-trained models) in the run's description."
                ),
                track=track.name,
            )
        )
    if len(description) > DESCRIPTION_MAX:
        raise DescriptionMissing(
            interpolate(
                _(
                    "The description has %(length)s characters; keep it under %(limit)s and put "
                    "the rest in the system-description paper."
                ),
                length=f"{len(description):,}",
                limit=f"{DESCRIPTION_MAX:,}",
            )
        )
    return description


def live_runs(site: Site, track: Track) -> list[Submission]:
    """The site's test runs of the track that count against the run limit (not withdrawn)."""
    return list(
        Submission.objects.filter(
            site=site,
            track=track,
            kind=SubmissionKind.RUN,
            phase=SubmissionPhase.TEST,
            withdrawn_at__isnull=True,
        ).order_by("run_number")
    )


def upload_refusal(user: User, track: Track, now: datetime) -> StrOrPromise | None:
    """Why the upload form is not offered to ``user`` for ``track`` at ``now``, or None."""
    try:
        site = check_can_submit(user, track, now)
    except Refused as refusal:
        return str(refusal.message)
    taken = len(live_runs(site, track))
    if taken >= track.max_runs:
        return interpolate(
            ngettext_lazy(
                "Your site has the %(limit)d run allowed for %(track)s. Withdraw it (on its "
                "page, before the deadline) to free its slot.",
                "Your site has the %(limit)d runs allowed for %(track)s. Withdraw one (on its "
                "page, before the deadline) to free its slot.",
                "limit",
            ),
            limit=track.max_runs,
            track=track.name,
        )
    return None


def open_unofficial_phases(user: User, track: Track, now: datetime) -> list[str]:
    """The unofficial phases (development, post-bakeoff) ``user`` may upload to at ``now``."""
    open_phases = []
    for phase, rules in phases.PHASES.items():
        if rules.facts.official:
            continue
        try:
            rules.check_can_submit(user, track, now)
        except Refused:
            continue
        open_phases.append(str(phase))
    return open_phases


def submit_run(
    user: User,
    track: Track,
    upload: bytes | Chunked,
    *,
    original_name: str = "",
    phase: str = SubmissionPhase.TEST,
    description: str = "",
    now: datetime | None = None,
) -> Submission:
    """Check an upload and accept it, or raise a Refused error saying exactly why.

    ``phase`` is the test (official), development or post-bakeoff phase (docs/phases.md); its
    row of ``phases.PHASES`` says who may submit, the text the run must segment and its limit.
    Every phase keeps the system description, checked by ``check_description`` (required on an
    open track). A refusal of a run sent by a member of a site of the bakeoff, in any phase, is
    recorded in the audit trail, with the rule, the receipt time and (when the file could be
    read) its checksum.
    """
    # The receipt time (bakeoff.receipt.received_at): the deadline is judged by the server's clock.
    now = now or clock.now()
    rules = phases.rules(phase)
    data: bytes | None = None
    allowed = False  # the site may upload: a refusal from then on is about the file
    try:
        site = rules.check_can_submit(user, track, now)
        allowed = True
        data = phases.read_run(upload, track, phase)
        text = rules.check_text(data, track)
        description = check_description(track, description)
        match rules.facts.limit:
            case Limit.PER_TRACK:
                return do_accept_run(
                    site,
                    track,
                    text,
                    user=user,
                    original_name=original_name,
                    description=description,
                    now=now,
                )
            case Limit.PER_DAY:
                return phases.do_accept_daily_run(
                    site,
                    track,
                    text,
                    phase,
                    user=user,
                    original_name=original_name,
                    description=description,
                    now=now,
                )
            case unreachable:
                assert_never(unreachable)
    except Refused as refusal:
        _record_refusal(
            user,
            track,
            refusal,
            data=data,
            unread=None if allowed else upload,
            phase=phase,
            original_name=original_name,
            now=now,
        )
        raise


def _record_refusal(
    user: User,
    track: Track,
    refusal: Refused,
    *,
    data: bytes | None,
    unread: bytes | Chunked | None,
    phase: str,
    original_name: str,
    now: datetime,
) -> None:
    """``unread``: the upload refused before it was read."""
    bakeoff = track.corpus.bakeoff
    if user.pk is None:
        return
    site = Site.objects.filter(bakeoff=bakeoff, members__pk=user.pk).order_by("pk").first()
    if site is None:  # not a participant: nothing of the bakeoff to record
        return
    if unread is not None:
        try:  # its checksum says which file it was
            data = phases.read_run(unread, track, phase)
        except Refused:
            data = None
    audit.record(
        bakeoff,
        audit.RUN_REFUSED,
        Subject(
            phases.rules(phase).refused,
            {"site": site.code or site.name, "track": track.name},
        ),
        actor=user,
        track=track,
        site=site,
        now=now,
        phase=phase,
        rule=REFUSAL_RULES.get(type(refusal), "refused"),
        reason=refusal.detail,
        **{audit.IN_LANGUAGES: {"reason": audit.in_languages(refusal.message)}},
        received_at=now,
        checksum=uploads.checksum(data) if data is not None else "",
        size_bytes=len(data) if data is not None else None,
        original_name=original_name[:255],
    )


def do_accept_run(
    site: Site,
    track: Track,
    text: str,
    *,
    user: User | None = None,
    original_name: str = "",
    description: str = "",
    now: datetime,
) -> Submission:
    """Store a checked run under the lowest free run number and queue it for scoring.

    A run identical to one of the site's runs of the track that is not withdrawn is refused,
    naming it. The database enforces the limit: a run number beyond ``max_runs`` violates a
    check, and two uploads racing for the same number violate a unique constraint (the loser
    tries again); the site's row is locked meanwhile, so two identical uploads cannot both pass.
    """
    data = text.encode("utf-8")
    name = f"{track.slug}-{site.pk}-{uuid.uuid4().hex[:12]}.txt"
    submission = Submission(
        track=track,
        site=site,
        kind=SubmissionKind.RUN,
        max_runs=track.max_runs,
        checksum=uploads.checksum(data),
        size_bytes=len(data),
        original_name=original_name[:255],
        description=description.strip(),
        received_at=now,
        submitted_by=user if isinstance(user, AbstractBaseUser) else None,
        status=SubmissionStatus.QUEUED,
        status_changed_at=now,
    )
    with uploads.files_removed_on_failure():  # a refusal, or a row the database refuses
        uploads.store(submission.file, name, data)
        for _attempt in range(10):
            try:
                with transaction.atomic():
                    list(Site.objects.select_for_update().filter(pk=site.pk).values("pk"))
                    live = live_runs(site, track)
                    _check_not_identical(live, track, submission.checksum)
                    taken = {run.run_number for run in live}
                    free = [n for n in range(1, track.max_runs + 1) if n not in taken]
                    if not free:
                        raise _limit_reached(track)
                    submission.run_number = free[0]
                    submission.save()
                    phases.run_accepted(
                        submission, user=user, now=now, description=submission.description
                    )
                return submission
            except IntegrityError:
                submission.pk = None
        raise _limit_reached(track)


def _check_not_identical(live: list[Submission], track: Track, checksum: str) -> None:
    for run in live:
        if run.checksum == checksum:
            raise IdenticalRun(
                interpolate(
                    _(
                        "This run is identical to your run %(number)d of %(track)s, received at "
                        "%(at)s (checksum %(checksum)s). Change the run, or withdraw the earlier "
                        "one first."
                    ),
                    number=run.run_number,
                    track=track.name,
                    at=stamp(run.received_at, track.corpus.bakeoff),
                    checksum=checksum,
                ),
                run=run.pk,
                run_number=run.run_number,
                checksum=checksum,
            )


def check_can_withdraw(user: User, submission: Submission, now: datetime) -> None:
    """A member of the run's site may withdraw it while its phase allows: an official (test) run
    until the submission deadline, a development or post-bakeoff run while its phase is open
    (its row of ``phases.PHASES``)."""
    _check_own_live_run(user, submission)
    phases.check_withdrawal_open(submission, now)


def _check_own_live_run(user: User, submission: Submission) -> None:
    if submission.kind != SubmissionKind.RUN or submission.site is None:
        raise NotAllowed(_("BASE and TOP cannot be withdrawn."))
    if user.pk is None or not submission.site.members.filter(pk=user.pk).exists():
        raise NotAllowed(_("Only a member of the run's site may withdraw it."))
    if submission.withdrawn_at is not None:
        bakeoff = submission.track.corpus.bakeoff
        raise Refused(
            interpolate(
                _("This run was withdrawn at %(utc)s."), utc=stamp(submission.withdrawn_at, bakeoff)
            )
        )


def do_withdraw_run(
    submission: Submission, *, user: User, now: datetime | None = None, reason: str = ""
) -> Submission:
    """Withdraw a run: it stays in the site's history and is never ranked nor shown in a table
    again (the leaderboard ranks the track again); an official run's slot is free again.

    A withdrawal refused because its phase is over is recorded in the audit trail
    (``RUN_WITHDRAWAL_REFUSED``)."""
    now = now or clock.now()
    check_text(reason=reason)
    _check_own_live_run(user, submission)
    try:
        phases.check_withdrawal_open(submission, now)
    except Refused as refusal:
        # Only this refusal is recorded: the run's own site asked, too late, to take back a run
        # that therefore still counts, and in a dispute over it the entry shows when they asked
        # and what they were told. The others decide nothing a dispute turns on: BASE and TOP
        # belong to no site, a run already withdrawn has its withdrawal recorded, and a request
        # from outside the site could never have withdrawn the run (recording it would let
        # anyone who can see the run, an organiser, write entries about that site).
        _record_refused_withdrawal(submission, refusal, user=user, now=now, reason=reason)
        raise
    by = user if isinstance(user, AbstractBaseUser) else None
    with transaction.atomic():
        changed = Submission.objects.filter(pk=submission.pk, withdrawn_at__isnull=True).update(
            withdrawn_at=now, withdrawn_by=by
        )
        if not changed:
            raise Refused(_("This run was withdrawn already."))
        submission.refresh_from_db()
        audit.record_run(
            submission,
            audit.RUN_WITHDRAWN,
            actor=by,
            now=now,
            run_number=submission.run_number,
            checksum=submission.checksum,
            received_at=submission.received_at,
            reason=reason.strip(),
        )
        signals.run_withdrawn.send(sender=Submission, submission=submission, now=now)
    return submission


def _record_refused_withdrawal(
    submission: Submission, refusal: Refused, *, user: User, now: datetime, reason: str
) -> None:
    audit.record_run(
        submission,
        audit.RUN_WITHDRAWAL_REFUSED,
        actor=user,
        now=now,
        run_number=submission.run_number,
        checksum=submission.checksum,
        received_at=submission.received_at,
        rule=REFUSAL_RULES.get(type(refusal), "refused"),
        refusal=refusal.detail,
        **{audit.IN_LANGUAGES: {"refusal": audit.in_languages(refusal.message)}},
        reason=reason.strip(),
    )


def _limit_reached(track: Track) -> RunLimitReached:
    return RunLimitReached(
        interpolate(
            ngettext_lazy(
                "Your site has already submitted the %(max_runs)s run allowed for %(name)s.",
                "Your site has already submitted the %(max_runs)s runs allowed for %(name)s.",
                "max_runs",
            ),
            max_runs=track.max_runs,
            name=track.name,
        ),
        max_runs=track.max_runs,
    )


def do_claim(submission_id: int, *, now: datetime, token: str = "") -> bool:
    """Move a submission to ``scoring`` under the claim ``token`` (the task's id) with a lease.

    A run in ``scoring`` is taken again only when its lease ran out (its worker died), when it has
    none (claimed before leases), or by the same task redelivered.
    """
    free = Q(status=SubmissionStatus.QUEUED) | (
        Q(status=SubmissionStatus.SCORING)
        & (Q(lease_until__isnull=True) | Q(lease_until__lt=now) | (Q(claim=token) & ~Q(claim="")))
    )
    return bool(
        Submission.objects.filter(
            free, pk=submission_id, attempts__lt=settings.BAKEOFF_MAX_SCORING_ATTEMPTS
        ).update(
            status=SubmissionStatus.SCORING,
            attempts=F("attempts") + 1,
            status_changed_at=now,
            claim=token,
            lease_until=now + timedelta(seconds=settings.BAKEOFF_SCORING_LEASE_SECONDS),
        )
    )


@contextmanager
def _leased(submission_id: int, token: str) -> Iterator[None]:
    """Renew the run's lease while the block runs (a third of the lease each time)."""
    if not token:
        yield
        return
    seconds = settings.BAKEOFF_SCORING_LEASE_SECONDS
    stop = threading.Event()

    def renew() -> None:
        try:
            while not stop.wait(seconds / 3):
                Submission.objects.filter(
                    pk=submission_id, status=SubmissionStatus.SCORING, claim=token
                ).update(lease_until=clock.now() + timedelta(seconds=seconds))
        except Exception as error:
            logger.warning("lease of submission %s not renewed: %s", submission_id, error)
        finally:
            connections.close_all()

    renewer = threading.Thread(target=renew, name=f"lease-{submission_id}", daemon=True)
    renewer.start()
    try:
        yield
    finally:
        stop.set()
        renewer.join(timeout=10)


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
    with _leased(submission_id, token):
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
    domains = figures_per_domain(details, domain_labels_for(corpus), corpus.domain_labels_checksum)
    with transaction.atomic():
        score = do_store_score(submission, gold, details.score, now=now, extra=domains)
        Submission.objects.filter(pk=submission_id, status=SubmissionStatus.SCORING).update(
            status=SubmissionStatus.SCORED,
            reason="",
            reason_code="",
            reason_params={},
            status_changed_at=clock.now(),
        )
        if labels_changed_meanwhile(corpus):
            # The labels came while this run was scored: its figures per domain, once stored.
            tasks.score_domains.delay_on_commit(corpus.pk)
    return score


def _score_development(submission: Submission, *, now: datetime) -> None:
    """A development run is scored against the development set, never into a ``Score``."""
    with transaction.atomic():
        outcome = phases.score_development(submission, now=now)
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
            tasks.score_submission.delay_on_commit(pk)
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
        if OutboxEntry.objects.filter(task=tasks.score_submission.name, args=[pk]).exists():
            continue  # still to be published: the outbox has it
        unchanged = Q(status=SubmissionStatus.QUEUED, status_changed_at=changed)
        if _requeue(pk, unchanged, now=now):
            republished.append(pk)
    if republished:
        logger.warning("published again the tasks of runs left queued %s", republished)
    return republished
