"""What the notifications app does when something happens: mail the people it concerns.

Connected in ``NotificationsConfig.ready``. Each receiver runs inside the transaction that made
the change and records its mails there; they are sent after the commit. Participants' mails go
to every member of the site concerned; a score is in a mail only where its recipient may see it
on the site (``bakeoff.access.viewer_for``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, F, Q
from django.urls import reverse

from bakeoff import sections as page_sections
from bakeoff import signals as bakeoff_signals
from bakeoff.access import viewer_for
from bakeoff.models import (
    Announcement,
    Bakeoff,
    DevelopmentScore,
    GoldVersion,
    Invitation,
    Registration,
    RegistrationStatus,
    Score,
    Site,
    Submission,
    SubmissionKind,
    Track,
)
from bakeoff.phase_table import per_track_phases
from bakeoff.services.timetable import LABELS as TIMETABLE_LABELS
from leaderboard import signals as leaderboard_signals
from leaderboard.models import Publication, ResultsVersion
from psychometric import signals as psychometric_signals
from psychometric.models import Committee, CommitteeStatus

from . import sections
from .addressing import bakeoff_url, members, organisers, participants, registered, when, when_for
from .mail import absolute, mail_each, mail_zone, queue_mail


def connect() -> None:
    page_sections.add("bakeoff.detail.organiser", sections.organiser_link)
    page_sections.add("bakeoff.account", sections.account_preferences)
    for signal, receiver in (
        (bakeoff_signals.registration_received, registration_received),
        (bakeoff_signals.registration_decided, registration_decided),
        (bakeoff_signals.run_received, run_received),
        (bakeoff_signals.score_stored, run_scored),
        (bakeoff_signals.development_scored, development_run_scored),
        (bakeoff_signals.run_failed, run_failed),
        (bakeoff_signals.milestone_reached, milestone_reached),
        (bakeoff_signals.invitation_created, invitation_created),
        (bakeoff_signals.announcement_posted, announcement_posted),
        (bakeoff_signals.timetable_changed, timetable_changed),
        (leaderboard_signals.results_published, results_published),
        (leaderboard_signals.erratum_published, erratum_published),
        (psychometric_signals.committee_finished, committee_finished),
    ):
        signal.connect(receiver, dispatch_uid=f"notifications.{receiver.__name__}")


# Registrations


def registration_received(
    *, site: Site, registrations: list[Registration], now: datetime, **_: Any
) -> None:
    bakeoff = site.bakeoff
    if bakeoff.auto_approve:
        return  # approved at once: the approval is the news
    key = "registration:" + ",".join(str(r.pk) for r in registrations)
    context = {"site": site, "registrations": registrations, "url": bakeoff_url(bakeoff)}
    mail_each(
        "registration_received",
        members(site),
        context=context,
        bakeoff=bakeoff,
        key=key,
        now=now,
    )
    decide = {**context, "url": bakeoff_url(bakeoff, "registrations")}
    mail_each(
        "registration_waiting",
        organisers(bakeoff),
        context=decide,
        bakeoff=bakeoff,
        key=key + ":waiting",
        now=now,
    )


def registration_decided(
    *, registration: Registration, now: datetime, reason_later: bool = False, **_: Any
) -> None:
    """The decision, to the site's members; a reason given after the refusal is mailed again
    (a mail of its own: the refusal's was sent without it)."""
    site = registration.site
    bakeoff = site.bakeoff
    approved = registration.status == RegistrationStatus.APPROVED
    kind = "registration_approved" if approved else "registration_refused"
    context = {
        "site": site,
        "registration": registration,
        "track": registration.track,
        "url": bakeoff_url(bakeoff),
        "upload_url": bakeoff_url(bakeoff, "upload", registration.track.slug),
        "test_released": when(bakeoff.test_released, bakeoff),
        "deadline": when(bakeoff.submission_deadline, bakeoff),
    }
    mail_each(
        kind,
        members(site),
        context=context,
        bakeoff=bakeoff,
        key=f"{kind}:{registration.pk}" + (":reason" if reason_later else ""),
        now=now,
    )


# Invitations


def invitation_created(*, invitation: Invitation, path: str, now: datetime, **_: Any) -> None:
    bakeoff = invitation.bakeoff
    queue_mail(
        "invitation",
        invitation.email,
        template="invitation",
        context={
            "invitation": invitation,
            "site": invitation.site,
            "link": absolute(path),
            "expires": when(invitation.expires_at, bakeoff),
            "invited_by": invitation.invited_by,
        },
        bakeoff=bakeoff,
        key=f"invitation:{invitation.pk}",
        now=now,
    )


# Runs


def run_received(*, submission: Submission, now: datetime, **_: Any) -> None:
    """The receipt: the proof of an on-time submission."""
    bakeoff = submission.track.corpus.bakeoff
    context = {
        "submission": submission,
        "track": submission.track,
        "site": submission.site,
        "received": when(submission.received_at, bakeoff, seconds=True),
        "deadline": when(bakeoff.submission_deadline, bakeoff, seconds=True),
        "url": bakeoff_url(bakeoff, "submission", submission.pk),
    }
    mail_each(
        "run_received",
        members(submission.site),
        context=context,
        bakeoff=bakeoff,
        key=f"run-received:{submission.pk}",
        now=now,
    )


def run_scored(
    *, score: Score, submission: Submission, gold: GoldVersion, now: datetime, **_: Any
) -> None:
    if submission.kind != SubmissionKind.RUN or score.metric != "word":
        return
    bakeoff = submission.track.corpus.bakeoff
    if submission.official and bakeoff.is_published(now):
        # A re-score of published results (a new gold version): its figures are the organisers'
        # until an erratum publishes them, and the erratum's mail tells every site what moved.
        return

    def context(member: User) -> dict[str, Any]:
        shows = viewer_for(member, bakeoff, now).sees_row(submission.track_id, submission.site_id)
        return {
            "submission": submission,
            "track": submission.track,
            "gold": gold,
            "score": score if shows else None,
            "url": bakeoff_url(bakeoff, "submission", submission.pk),
        }

    mail_each(
        "run_scored",
        members(submission.site),
        context=context,
        bakeoff=bakeoff,
        key=f"run-scored:{score.pk}",
        now=now,
    )


def development_run_scored(
    *, score: DevelopmentScore, submission: Submission, now: datetime, **_: Any
) -> None:
    """A development run's figures: its site sees them at once on the development table, so the
    mail carries them; it says the run is not official (``PhaseFacts.standing``)."""
    bakeoff = submission.track.corpus.bakeoff
    mail_each(
        "run_scored",
        members(submission.site),
        context={
            "submission": submission,
            "track": submission.track,
            "gold": None,  # scored against the development set
            "score": score,
            "url": bakeoff_url(bakeoff, "submission", submission.pk),
        },
        bakeoff=bakeoff,
        key=f"development-scored:{score.pk}:{score.created_at.isoformat()}",
        now=now,
    )


def run_failed(
    *, submission: Submission, reason: str, internal: bool, now: datetime, **_: Any
) -> None:
    bakeoff = submission.track.corpus.bakeoff
    key = f"run-failed:{submission.pk}:{now.isoformat()}"
    context = {
        "submission": submission,
        "track": submission.track,
        # rendered in each recipient's language (the signal's ``reason`` is the English text)
        "reason": submission.reason_shown,
        "internal": internal,
        "url": bakeoff_url(bakeoff, "submission", submission.pk),
    }
    mail_each(
        "run_failed",
        members(submission.site),
        context=context,
        bakeoff=bakeoff,
        key=key,
        now=now,
    )
    if internal:
        mail_each(
            "run_failed_internal",
            organisers(bakeoff),
            context=context,
            bakeoff=bakeoff,
            key=key + ":internal",
            now=now,
        )


# The timetable


def milestone_reached(
    *, bakeoff: Bakeoff, milestone: str, at: datetime, now: datetime, **_: Any
) -> None:
    if milestone in ("training_released", "test_released"):
        data_released(bakeoff, "test" if milestone == "test_released" else "training", now=now)
    elif milestone in ("deadline_48h", "deadline_2h"):
        deadline_reminder(bakeoff, milestone, now=now)
    elif milestone == "results_published":
        results_mail(bakeoff, now=now)


def data_released(bakeoff: Bakeoff, data: str, *, now: datetime) -> None:
    corpora = [
        {
            "abbreviation": corpus.abbreviation,
            "name": corpus.name,
            "url": bakeoff_url(bakeoff, "corpus", corpus.abbreviation),
        }
        for corpus in bakeoff.corpora.all()
    ]
    mail_each(
        "data_released",
        participants(bakeoff),
        context={
            "data": data,
            "corpora": corpora,
            "deadline": when(bakeoff.submission_deadline, bakeoff),
        },
        bakeoff=bakeoff,
        key=f"data-released:{bakeoff.pk}:{data}",
        now=now,
    )


def runs_left(bakeoff: Bakeoff) -> dict[Site, list[tuple[Track, int]]]:
    """Each site with an approved track where it may still upload runs, with how many."""
    registrations = (
        Registration.objects.filter(site__bakeoff=bakeoff, status=RegistrationStatus.APPROVED)
        .select_related("site", "track__corpus")
        .annotate(
            used=Count(
                "site__submissions",
                # development runs never count toward the test run limit
                filter=Q(site__submissions__track=F("track"))
                & Q(site__submissions__phase__in=per_track_phases()),
                distinct=True,
            )
        )
        .order_by("site__pk", "track__slug")
    )
    left: dict[Site, list[tuple[Track, int]]] = {}
    for registration in registrations:
        remaining = registration.track.max_runs - registration.used
        if remaining > 0:
            left.setdefault(registration.site, []).append((registration.track, remaining))
    return left


def deadline_reminder(bakeoff: Bakeoff, milestone: str, *, now: datetime) -> None:
    hours = 48 if milestone == "deadline_48h" else 2
    for site, tracks in runs_left(bakeoff).items():
        context = {
            "hours": hours,
            "site": site,
            "tracks": [
                {
                    "name": t.name,
                    "left": n,
                    "url": bakeoff_url(bakeoff, "upload", t.slug),
                }
                for t, n in tracks
            ],
            "deadline": when(bakeoff.submission_deadline, bakeoff),
        }
        mail_each(
            "deadline_reminder",
            members(site),
            context=context,
            bakeoff=bakeoff,
            key=f"reminder:{bakeoff.pk}:{milestone}",
            now=now,
        )


def results_mail(bakeoff: Bakeoff, *, now: datetime) -> None:
    context = {"url": absolute(reverse("leaderboard:results", args=[bakeoff.slug]))}
    mail_each(
        "results_published",
        participants(bakeoff),
        context=context,
        bakeoff=bakeoff,
        key=f"results:{bakeoff.pk}",
        now=now,
    )


def results_published(
    *, bakeoff: Bakeoff, publication: Publication, at: datetime, now: datetime, **_: Any
) -> None:
    """Published now: mailed now. Published for later: mailed by the milestone when it comes."""
    if at <= now:
        results_mail(bakeoff, now=now)


def erratum_published(
    *, bakeoff: Bakeoff, version: ResultsVersion, now: datetime, **_: Any
) -> None:
    """An erratum changes published results: every participant is told what moved (as the
    public page shows it: with names or codes)."""
    url = absolute(reverse("leaderboard:version", args=[bakeoff.slug, version.number]))
    tracks = [change["name"] for change in version.changes]
    moved = sum(len(change["runs"]) for change in version.changes)
    mail_each(
        "results_published",
        participants(bakeoff),
        template="results_erratum",
        context={"version": version, "url": url, "tracks": tracks, "moved": moved},
        bakeoff=bakeoff,
        key=f"results:{bakeoff.pk}:v{version.number}",
        now=now,
    )


def timetable_changed(
    *,
    bakeoff: Bakeoff,
    changes: dict[str, tuple[Any, Any]],
    note: str,
    now: datetime,
    **_: Any,
) -> None:
    """A moved deadline, release or registration close reaches every registered site, each
    instant in its reader's zone (and the bakeoff's, and UTC), with the organiser's note."""

    def context(member: User) -> dict[str, Any]:
        zone = mail_zone(member)
        shown = [
            {
                "label": TIMETABLE_LABELS.get(name, name),
                "old": when_for(old, bakeoff, zone) if isinstance(old, datetime) else old,
                "new": when_for(new, bakeoff, zone) if isinstance(new, datetime) else new,
            }
            for name, (old, new) in changes.items()
        ]
        return {"changes": shown, "note": note, "url": bakeoff_url(bakeoff)}

    mail_each(
        "timetable_changed",
        registered(bakeoff),
        context=context,
        bakeoff=bakeoff,
        key=f"timetable:{bakeoff.pk}:{now.isoformat()}",
        now=now,
    )


# Announcements


def announcement_posted(*, announcement: Announcement, now: datetime, **_: Any) -> None:
    """To every member of every registered site (not refused), or of the chosen tracks' sites."""
    bakeoff = announcement.bakeoff
    tracks = list(announcement.tracks.all())
    context = {"announcement": announcement, "tracks": tracks, "url": bakeoff_url(bakeoff)}
    mail_each(
        "announcement",
        registered(bakeoff, tracks=tracks),
        context=context,
        bakeoff=bakeoff,
        key=f"announcement:{announcement.pk}",
        now=now,
    )


# Committees


def committee_finished(*, committee: Committee, now: datetime, **_: Any) -> None:
    bakeoff = committee.corpus.bakeoff
    complete = committee.status == CommitteeStatus.COMPLETE
    context = {
        "committee": committee,
        "complete": complete,
        "url": bakeoff_url(bakeoff, "corpus", committee.corpus.abbreviation),
        # after publication its balanced scores are the organisers' until an erratum freezes them
        "erratum_url": (
            absolute(reverse("leaderboard:erratum", args=[bakeoff.slug]))
            if complete and bakeoff.is_published(now)
            else ""
        ),
    }
    mail_each(
        "committee_finished",
        organisers(bakeoff),
        context=context,
        bakeoff=bakeoff,
        key=f"committee:{committee.pk}:{committee.status}",
        now=now,
    )
