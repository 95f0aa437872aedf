"""Runs: the checks at upload, acceptance under the run limit, withdrawal (the scoring state
machine and its recovery are in ``recovery.py``).
What differs by phase (who may submit, the text a run segments, its limit, what it is scored
against) is read from the phase's row (``phases.PHASES``, ``phase_table.FACTS``).

A submission's status changes only here and in ``recovery.py``, by conditional UPDATEs:
queued → scoring → scored, or → failed with a reason. A new gold version queues runs again.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import assert_never

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django_stubs_ext import StrOrPromise

from bakeoff.errors import interpolate

from .. import audit, clock, signals
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
from ..models import (
    Condition,
    Site,
    Submission,
    SubmissionKind,
    SubmissionPhase,
    SubmissionStatus,
    Track,
)
from ..phase_table import Limit, per_track_phases
from ..validators import check_text
from . import phases, uploads
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
    """The site's runs of the track that count against the run limit (not withdrawn)."""
    return list(
        Submission.objects.filter(
            site=site,
            track=track,
            kind=SubmissionKind.RUN,
            phase__in=per_track_phases(),
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
