"""The rules of the run phases (docs/phases.md#the-phase-table): ``PHASES``, one row per
``SubmissionPhase``, is with ``bakeoff.phase_table.FACTS`` (the pure data each row carries) the one
owner of the phases. A row says who may submit when, the withdrawal window, the run limit, the
text a run segments (its size bounds an upload) and how a refused upload is recorded; its facts
say whether it is official, how it is limited, what it is scored against and which table shows it.
The rows are made by ``_rules_of``, a ``match`` on the phase ending in ``assert_never``: mypy names
it when a phase is added. Code that differs by phase reads the row, or matches on one of its facts
with ``assert_never`` again.

Besides the test phase (the official runs), development runs are scored against a corpus's
development set into ``DevelopmentScore`` (never a ``Score``; the module ``development``), and
post-bakeoff runs, after publication, are ranked apart by the leaderboard. Both are limited per
site, track and day, not by the test run limit.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, assert_never

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django_stubs_ext import StrOrPromise

import scoring
from bakeoff.errors import interpolate

from .. import audit, clock, signals
from ..access import User
from ..audit_text import (
    POST_BAKEOFF_CLOSED,
    POST_BAKEOFF_OPENED,
    UPLOAD_REFUSED,
    UPLOAD_REFUSED_DEVELOPMENT,
    UPLOAD_REFUSED_POST_BAKEOFF,
    Subject,
)
from ..errors import (
    DeadlinePassed,
    GoldAsRun,
    InvalidFile,
    NotRegistered,
    NotReleased,
    Refused,
    RunLimitReached,
)
from ..models import (
    Bakeoff,
    DevelopmentSet,
    Site,
    Submission,
    SubmissionKind,
    SubmissionPhase,
    SubmissionStatus,
    Track,
)
from ..phase_table import FACTS, ByPhase, PhaseFacts, facts
from ..task_base import enqueue_on_commit
from ..task_names import SCORE_SUBMISSION
from . import uploads
from .agreements import check_licence_accepted
from .development import check_development_run
from .instants import stamp
from .registration import approved_site
from .uploads import Chunked


def do_open_post_bakeoff(
    track: Track, *, open: bool = True, by: User | None = None, now: datetime | None = None
) -> bool:
    """Open (or close) a track for post-bakeoff runs; refused before publication. Closing stops
    new runs and hides the track's post-bakeoff table (its rows are kept)."""
    now = now or clock.now()
    bakeoff = track.corpus.bakeoff
    if open and not bakeoff.is_published(now):
        raise Refused(_("A track opens for post-bakeoff runs once the results are published."))
    with transaction.atomic():
        changed = Track.objects.filter(pk=track.pk, post_bakeoff_open=not open).update(
            post_bakeoff_open=open
        )
        if changed:
            audit.record(
                bakeoff,
                audit.POST_BAKEOFF_OPENED if open else audit.POST_BAKEOFF_CLOSED,
                Subject(
                    POST_BAKEOFF_OPENED if open else POST_BAKEOFF_CLOSED, {"track": track.name}
                ),
                actor=by,
                track=track,
                now=now,
            )
    track.post_bakeoff_open = open
    return bool(changed)


def check_can_submit(user: User, track: Track, now: datetime) -> Site:
    """The site on whose behalf ``user`` may upload a test (official) run for ``track`` at
    ``now``: from the release of the test data until the deadline and its grace period, and
    never after publication."""
    bakeoff = track.corpus.bakeoff
    published = bakeoff.results_published
    if published is not None and published <= now:
        # Published means closed, whatever the timetable says (services.timetable).
        raise DeadlinePassed(
            interpolate(
                _("The results were published at %(utc)s: no run is accepted any more."),
                utc=stamp(published, bakeoff),
            ),
            deadline=bakeoff.submission_deadline.isoformat(),
            received_at=now.isoformat(),
        )
    if now > bakeoff.accepts_runs_until:
        text = (
            ngettext_lazy(
                "The submission deadline was %(deadline)s (and its grace period of %(minutes)s "
                "minute ended %(until)s); this run arrived at %(received)s.",
                "The submission deadline was %(deadline)s (and its grace period of %(minutes)s "
                "minutes ended %(until)s); this run arrived at %(received)s.",
                "minutes",
            )
            if bakeoff.grace_minutes
            else _("The submission deadline was %(deadline)s; this run arrived at %(received)s.")
        )
        raise DeadlinePassed(
            interpolate(
                text,
                deadline=stamp(bakeoff.submission_deadline, bakeoff),
                minutes=bakeoff.grace_minutes,
                until=stamp(bakeoff.accepts_runs_until, bakeoff),
                received=stamp(now, bakeoff),
            ),
            deadline=bakeoff.submission_deadline.isoformat(),
            received_at=now.isoformat(),
        )
    if now < bakeoff.test_released:
        raise NotReleased(
            interpolate(
                _("Runs are accepted once the test data is released, at %(utc)s."),
                utc=stamp(bakeoff.test_released, bakeoff),
            )
        )
    site = approved_site(user, track)
    if site is None:
        raise NotRegistered(
            interpolate(
                _("Your site is not registered (or not yet approved) for the track %(name)s."),
                name=track.name,
            )
        )
    check_licence_accepted(site, track.corpus)
    return site


def check_run(data: bytes, track: Track) -> str:
    """The run's text, decoded strictly and matching the track's test text line by line."""
    corpus = track.corpus
    text = uploads.decode(data, corpus.encoding, "run")
    test_text = uploads.read_stored_text(corpus.test_text)
    try:
        scoring.validate_run(text, test_text)
    except scoring.ScoringError as error:
        raise InvalidFile.from_scoring_error(error) from None
    return text


def check_post_bakeoff_run(data: bytes, track: Track) -> str:
    """A post-bakeoff run is checked as a test run, and is not the gold standard itself: once
    the results are published anyone may download the gold, and sending it back would put F = 1
    on the standing table (compared canonically: spaces, U+3000 or CRLF change nothing)."""
    text = check_run(data, track)
    corpus = track.corpus
    golds = {corpus.released_gold(), corpus.current_gold()}
    if scoring.gold_checksum(text) in {g.canonical_checksum for g in golds if g is not None}:
        raise GoldAsRun(
            interpolate(
                _(
                    "This run is the gold standard of %(track)s itself, which is public since "
                    "the results were published: a post-bakeoff run must be the output of a "
                    "system."
                ),
                track=track.name,
            )
        )
    return text


def check_can_submit_development(user: User, track: Track, now: datetime) -> Site:
    """The approved site on whose behalf ``user`` may upload a development run."""
    bakeoff = track.corpus.bakeoff
    if not DevelopmentSet.objects.filter(corpus=track.corpus_id).exists():
        raise NotReleased(
            interpolate(_("The corpus of %(name)s has no development set."), name=track.name)
        )
    if now < bakeoff.training_released:
        raise NotReleased(
            interpolate(
                _("Development runs are accepted once the training data is released, at %(utc)s."),
                utc=stamp(bakeoff.training_released, bakeoff),
            )
        )
    if now > bakeoff.submission_deadline:
        raise DeadlinePassed(
            interpolate(
                _("The development phase ended with the submission deadline, %(utc)s."),
                utc=stamp(bakeoff.submission_deadline, bakeoff),
            )
        )
    return _approved_site(user, track, FACTS[SubmissionPhase.DEVELOPMENT].runs)


def check_can_submit_post_bakeoff(user: User, track: Track, now: datetime) -> Site:
    """The approved site on whose behalf ``user`` may upload a post-bakeoff run."""
    bakeoff = track.corpus.bakeoff
    if not bakeoff.is_published(now) or not track.post_bakeoff_open:
        raise NotReleased(
            interpolate(_("The track %(name)s is not open for post-bakeoff runs."), name=track.name)
        )
    return _approved_site(user, track, FACTS[SubmissionPhase.POST_BAKEOFF].runs)


def check_withdrawal_open(submission: Submission, now: datetime) -> None:
    """Whether the run's phase still lets its site withdraw it at ``now`` (its row's window)."""
    rules(submission.phase).check_withdrawal_open(submission, now)


def _test_withdrawal_open(submission: Submission, now: datetime) -> None:
    """An official run may be withdrawn until the submission deadline."""
    bakeoff = submission.track.corpus.bakeoff
    deadline = bakeoff.submission_deadline
    if now > deadline:
        raise DeadlinePassed(
            interpolate(
                _("Runs can be withdrawn until the submission deadline, %(utc)s."),
                utc=stamp(deadline, bakeoff),
            ),
            deadline=deadline.isoformat(),
        )


# The submission deadline fixes the official table, which unofficial runs are never in; what
# bounds them is their own phase: a site may take a run back as long as it may send one, and once
# the phase is over its table stays as it was left (a paper may cite a post-bakeoff run's page).


def _development_withdrawal_open(submission: Submission, now: datetime) -> None:
    """A development run during the development phase (it ends with the submission deadline)."""
    bakeoff = submission.track.corpus.bakeoff
    if now > bakeoff.submission_deadline:
        raise DeadlinePassed(
            interpolate(
                _(
                    "Development runs can be withdrawn during the development phase, which "
                    "ended with the submission deadline, %(utc)s."
                ),
                utc=stamp(bakeoff.submission_deadline, bakeoff),
            ),
            deadline=bakeoff.submission_deadline.isoformat(),
        )


def _post_bakeoff_withdrawal_open(submission: Submission, now: datetime) -> None:
    """A post-bakeoff run while its track is open for post-bakeoff runs."""
    track = submission.track
    if not track.corpus.bakeoff.is_published(now) or not track.post_bakeoff_open:
        raise NotReleased(
            interpolate(
                _(
                    "Post-bakeoff runs can be withdrawn while their track is open for "
                    "post-bakeoff runs, and %(name)s is not."
                ),
                name=track.name,
            )
        )


def _approved_site(user: User, track: Track, what: StrOrPromise) -> Site:
    site = approved_site(user, track)
    if site is None:
        raise NotRegistered(
            interpolate(
                _(
                    "Your site is not registered (or not yet approved) for the "
                    "track %(name)s; register it to upload %(what)s."
                ),
                name=track.name,
                what=what,
            )
        )
    check_licence_accepted(site, track.corpus)
    return site


def run_limit(track: Track, phase: str) -> int:
    """The limit a run of ``phase`` counts against: per track or per day, as its facts say."""
    return rules(phase).run_limit(track)


def day_of(bakeoff: Bakeoff, now: datetime) -> tuple[datetime, datetime]:
    """The calendar day of ``now`` in the bakeoff's time zone, as an instant range."""
    local = now.astimezone(bakeoff.zone)
    start = local.replace(hour=0, minute=0, second=0, microsecond=0)
    return start, (start + timedelta(days=1)).replace(hour=0)


def runs_today(site: Site, track: Track, phase: str, now: datetime) -> int:
    start, end = day_of(track.corpus.bakeoff, now)
    return Submission.objects.filter(
        site=site, track=track, phase=phase, received_at__gte=start, received_at__lt=end
    ).count()


def do_accept_daily_run(
    site: Site,
    track: Track,
    text: str,
    phase: str,
    *,
    user: User | None = None,
    original_name: str = "",
    description: str = "",
    now: datetime,
) -> Submission:
    """Store a checked development or post-bakeoff run and queue it for scoring, unless the site
    has reached the phase's limit for the day (counted under a lock on the site's row)."""
    bakeoff = track.corpus.bakeoff
    limit = run_limit(track, phase)
    data = text.encode("utf-8")
    submission = Submission(
        track=track,
        site=site,
        kind=SubmissionKind.RUN,
        phase=phase,
        max_runs=max(limit, 1),
        checksum=uploads.checksum(data),
        size_bytes=len(data),
        original_name=original_name[:255],
        description=description.strip(),
        received_at=now,
        submitted_by=user if isinstance(user, AbstractBaseUser) else None,
        status=SubmissionStatus.QUEUED,
        status_changed_at=now,
    )
    name = f"{track.slug}-{phase}-{site.pk}-{uuid.uuid4().hex[:12]}.txt"
    with uploads.files_removed_on_failure():  # a refusal, or a row the database refuses
        uploads.store(submission.file, name, data)
        with transaction.atomic():
            list(Site.objects.select_for_update().filter(pk=site.pk))  # one upload at a time
            if runs_today(site, track, phase, now) >= limit:
                _start, end = day_of(bakeoff, now)
                raise RunLimitReached(
                    interpolate(
                        _(
                            "Your site has already uploaded the %(limit)s "
                            "%(phase_words)s allowed per day for %(name)s; the next day "
                            "starts at %(utc)s (%(end)s %(time_zone)s)."
                        ),
                        limit=limit,
                        phase_words=facts(phase).runs,
                        name=track.name,
                        utc=stamp(end),
                        end=format(end, "%H:%M"),
                        time_zone=bakeoff.time_zone,
                    ),
                    max_runs=limit,
                    per="day",
                )
            taken = Submission.objects.filter(site=site, track=track, phase=phase).aggregate(
                n=Max("run_number")
            )
            submission.run_number = (taken["n"] or 0) + 1
            submission.save()
            run_accepted(submission, user=user, now=now, description=submission.description)
    return submission


def run_accepted(
    submission: Submission, *, user: User | None, now: datetime, **details: Any
) -> None:
    """A run just stored (in any phase): recorded, its receipt sent, then queued for scoring (the
    receipt's mail is queued before the scoring starts)."""
    audit.record_run(
        submission,
        audit.RUN_ACCEPTED,
        actor=user,
        now=now,
        run_number=submission.run_number,
        received_at=now,
        checksum=submission.checksum,
        size_bytes=submission.size_bytes,
        original_name=submission.original_name,
        **details,
    )
    signals.run_received.send(sender=Submission, submission=submission, now=now)
    enqueue_on_commit(SCORE_SUBMISSION, submission.pk)


def run_bytes_limit(track: Track, phase: str) -> int:
    """The size of the text a run of ``phase`` segments (``uploads.read_run`` caps by it)."""
    return rules(phase).text_bytes(track)


def read_run(upload: bytes | Chunked, track: Track, phase: str) -> bytes:
    """The bytes of a run of ``phase``, refused unread when larger than a segmentation of the
    text it segments could be (the refusal names that text)."""
    return uploads.read_run(upload, run_bytes_limit(track, phase), text=facts(phase).text)


def _test_text_bytes(track: Track) -> int:
    return int(track.corpus.test_text.size)


def _development_text_bytes(track: Track) -> int:
    dev = DevelopmentSet.objects.filter(corpus=track.corpus_id).first()
    # no development set: the upload is refused before it is read (check_can_submit_development)
    return int(dev.text.size) if dev is not None else _test_text_bytes(track)


@dataclass(frozen=True)
class Phase:
    """The rules of one phase; ``facts`` is its row of ``bakeoff.phase_table.FACTS``."""

    facts: PhaseFacts
    # the site on whose behalf a user may upload a run of the phase now, or a refusal
    check_can_submit: Callable[[User, Track, datetime], Site]
    # refuses when the phase no longer lets the run's site withdraw it
    check_withdrawal_open: Callable[[Submission, datetime], None]
    # the number of runs ``facts.limit`` allows (per site and track, or per day)
    run_limit: Callable[[Track], int]
    # the size of the text a run segments, and the run's text checked against that text
    text_bytes: Callable[[Track], int]
    check_text: Callable[[bytes, Track], str]
    # the audit trail's subject of a refused upload
    refused: str


def _rules_of(phase: SubmissionPhase) -> Phase:
    """The rules of ``phase``: a ``match`` that mypy checks is exhaustive, so that a new member
    of ``SubmissionPhase`` is an error here until it has its row."""
    match phase:
        case SubmissionPhase.TEST:
            return Phase(
                facts=FACTS[phase],
                check_can_submit=check_can_submit,
                check_withdrawal_open=_test_withdrawal_open,
                run_limit=lambda track: track.max_runs,
                text_bytes=_test_text_bytes,
                check_text=check_run,
                refused=UPLOAD_REFUSED,
            )
        case SubmissionPhase.DEVELOPMENT:
            return Phase(
                facts=FACTS[phase],
                check_can_submit=check_can_submit_development,
                check_withdrawal_open=_development_withdrawal_open,
                run_limit=lambda track: track.corpus.bakeoff.development_runs_per_day,
                text_bytes=_development_text_bytes,
                check_text=check_development_run,
                refused=UPLOAD_REFUSED_DEVELOPMENT,
            )
        case SubmissionPhase.POST_BAKEOFF:
            return Phase(
                facts=FACTS[phase],
                check_can_submit=check_can_submit_post_bakeoff,
                check_withdrawal_open=_post_bakeoff_withdrawal_open,
                run_limit=lambda track: track.corpus.bakeoff.post_bakeoff_runs_per_day,
                text_bytes=_test_text_bytes,
                check_text=check_post_bakeoff_run,
                refused=UPLOAD_REFUSED_POST_BAKEOFF,
            )
        case unreachable:
            assert_never(unreachable)


PHASES: ByPhase[Phase] = ByPhase(_rules_of)


def rules(value: str) -> Phase:
    """The row of a phase given as its value (a form's, the API's, a stored run's)."""
    return PHASES[SubmissionPhase(value)]
