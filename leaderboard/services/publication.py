"""Publishing a bakeoff's results: the publication (or its schedule) and its withdrawal, the
preview of what becomes visible, the errata (results versions) and a standing leaderboard.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from bakeoff import audit, clock
from bakeoff import services as bakeoff_services
from bakeoff.access import User
from bakeoff.audit_text import (
    ERRATUM,
    RESULTS_PUBLISHED,
    RESULTS_SCHEDULED,
    RESULTS_WITHDRAWN,
    Subject,
)
from bakeoff.errors import Refused, interpolate
from bakeoff.models import (
    Bakeoff,
    GoldVersion,
    Site,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    Track,
    run_label,
)
from bakeoff.phase_table import official_phases

from .. import signals, versions
from ..models import Publication, PublicationMode, ResultsVersion, TrackRanking, TrackStanding


def check_can_publish(bakeoff: Bakeoff, at: datetime, now: datetime) -> None:
    """Results (and with them the gold standard) are never public before the deadline, and
    once public they stay public: a change is then published as an erratum."""
    if at < bakeoff.submission_deadline:
        raise Refused(
            interpolate(
                _(
                    "Results cannot be published before the submission deadline "
                    "(%(utc)s): the gold standard is released with them."
                ),
                utc=_utc(bakeoff.submission_deadline),
            )
        )
    published = bakeoff.results_published  # set, when is_published
    if published is not None and bakeoff.is_published(now):
        raise Refused(
            interpolate(
                _(
                    "The results were published at %(utc)s and are frozen; "
                    "publish an erratum to make a change public."
                ),
                utc=_utc(published),
            )
        )


def site_aliases(bakeoff: Bakeoff) -> dict[str, str]:
    sites = (
        Site.objects.filter(
            bakeoff=bakeoff, number__isnull=False, submissions__phase__in=official_phases()
        )
        .distinct()
        .order_by("number")
    )
    return {str(pk): f"P{i}" for i, pk in enumerate(sites.values_list("pk", flat=True), 1)}


def do_publish(
    bakeoff: Bakeoff,
    *,
    at: datetime,
    mode: str = PublicationMode.NAMES,
    by: User | None = None,
    now: datetime | None = None,
) -> Publication:
    """Publish the results at ``at`` (now or later), with site names or codes P1, P2...

    The results are frozen now as version 1 (``versions``): what becomes public at ``at`` is
    what the tables hold now. The codes are fixed now, in the order of the site codes, for the
    sites that have a run. A publication scheduled for later may be changed until it happens
    (it is frozen again); then it is final.
    """
    now = now or clock.now()
    if mode not in PublicationMode.values:
        raise Refused(interpolate(_("Unknown publication mode %(mode)s."), mode=repr(mode)))
    actor = by if isinstance(by, AbstractBaseUser) else None
    with transaction.atomic():
        # One publication at a time; and the check reads the committed state.
        locked = Bakeoff.objects.select_for_update().get(pk=bakeoff.pk)
        check_can_publish(locked, at, now)
        aliases = site_aliases(bakeoff)
        Bakeoff.objects.filter(pk=bakeoff.pk).update(results_published=at)
        publication, _created = Publication.objects.update_or_create(
            bakeoff=bakeoff,
            defaults={"mode": mode, "aliases": aliases, "decided_at": now, "decided_by": actor},
        )
        ResultsVersion.objects.filter(bakeoff=bakeoff).delete()  # a schedule not yet public
        GoldVersion.objects.filter(corpus__bakeoff=bakeoff).update(released_with_results=False)
        version = ResultsVersion.objects.create(
            bakeoff=bakeoff,
            number=1,
            published_at=at,
            created_at=now,
            created_by=actor,
            mode=mode,
            aliases=aliases,
        )
        frozen = versions.freeze(bakeoff)
        versions.store(version, frozen)
        audit.record(
            bakeoff,
            audit.RESULTS_PUBLISHED,
            Subject(
                RESULTS_PUBLISHED if at <= now else RESULTS_SCHEDULED,
                {"at": _utc(at), "mode": mode},
            ),
            actor=by,
            now=now,
            at=at,
            mode=mode,
            tracks=versions.summary(frozen),
        )
        signals.results_published.send(
            sender=Publication,
            bakeoff=bakeoff,
            publication=publication,
            at=at,
            now=now,
            version=version,
        )
    bakeoff.results_published = at
    return publication


def publication_preview(bakeoff: Bakeoff, mode: str) -> list[dict[str, Any]]:
    """What publishing now would make public, per track: every row as readers will see it
    (site names, or the codes P1, P2...), the gold version released with it."""
    aliases = site_aliases(bakeoff)
    anonymised = mode == PublicationMode.ANONYMISED
    preview = []
    for track in _tracks(bakeoff).values():
        ranking = TrackRanking.objects.filter(track=track).select_related("gold_version").first()
        rows = []
        standings = TrackStanding.objects.filter(track=track).select_related("site", "score")
        for s in standings.order_by("position"):
            if s.site is None:
                shown = "BASE" if s.kind == SubmissionKind.BASELINE else "TOP"
            elif anonymised:
                shown = run_label(aliases.get(str(s.site_id), "P?"), s.run_number)
            else:
                shown = run_label(f"{s.site.code} {s.site.name}", s.run_number)
            rows.append({"rank": s.rank, "shown": shown, "f": s.score.f})
        preview.append(
            {
                "track": track,
                "gold": ranking.gold_version if ranking else None,
                "rows": rows,
                "pending": ranking.pending_runs if ranking else 0,
            }
        )
    return preview


def do_withdraw_publication(
    bakeoff: Bakeoff, *, by: User | None = None, now: datetime | None = None
) -> None:
    """Cancel a publication that has not happened yet; a past one cannot be taken back."""
    now = now or clock.now()
    with transaction.atomic():
        locked = Bakeoff.objects.select_for_update().get(pk=bakeoff.pk)
        published = locked.results_published  # set, when is_published
        if published is not None and locked.is_published(now):
            raise Refused(
                interpolate(
                    _(
                        "The results were published at %(utc)s; the gold standard "
                        "has been released and cannot be withdrawn."
                    ),
                    utc=_utc(published),
                )
            )
        Bakeoff.objects.filter(pk=bakeoff.pk).update(results_published=None)
        Publication.objects.filter(bakeoff=bakeoff).delete()
        ResultsVersion.objects.filter(bakeoff=bakeoff).delete()
        GoldVersion.objects.filter(corpus__bakeoff=bakeoff).update(released_with_results=False)
        if published is not None:
            audit.record(
                bakeoff,
                audit.RESULTS_WITHDRAWN,
                Subject(RESULTS_WITHDRAWN, {"at": _utc(published)}),
                actor=by,
                now=now,
                was=published,
            )
    bakeoff.results_published = None


def pending_changes(
    bakeoff: Bakeoff, *, now: datetime | None = None
) -> tuple[ResultsVersion | None, list[dict[str, Any]]]:
    """The newest public version and what an erratum published now would change."""
    now = now or clock.now()
    current = versions.newest(bakeoff, now)
    if current is None:
        return None, []
    live = {pk: versions.freeze_track(t) for pk, t in _tracks(bakeoff).items()}
    return current, versions.changes(versions.frozen_data(current), live)


def _tracks(bakeoff: Bakeoff) -> dict[int, Track]:
    tracks = Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus")
    return {t.pk: t for t in tracks.order_by("corpus__abbreviation", "condition")}


def do_publish_erratum(
    bakeoff: Bakeoff, *, note: str, by: User | None = None, now: datetime | None = None
) -> ResultsVersion:
    """Publish what changed since the newest version (a new gold version, an accepted
    correction, a re-score) as a new results version, public at once, with the organiser's note
    and the list of what moved. Refused before publication, without a note, or when nothing
    changed."""
    now = now or clock.now()
    note = note.strip()
    if not note:
        raise Refused(_("Say in the note what the erratum corrects and why."))
    actor = by if isinstance(by, AbstractBaseUser) else None
    with transaction.atomic():
        locked = Bakeoff.objects.select_for_update().get(pk=bakeoff.pk)
        current = versions.newest(locked, now)
        if current is None or not locked.is_published(now):
            raise Refused(_("An erratum corrects published results; these are not published yet."))
        last = ResultsVersion.objects.filter(bakeoff=bakeoff).order_by("-number").first()
        assert last is not None  # current is one
        frozen = versions.freeze(bakeoff)
        moved = versions.changes(versions.frozen_data(last), frozen)
        if not moved:
            raise Refused(
                interpolate(
                    _(
                        "Nothing has changed since results version %(number)s: there "
                        "is no erratum to publish."
                    ),
                    number=last.number,
                )
            )
        publication = Publication.objects.filter(bakeoff=bakeoff).first()
        version = ResultsVersion.objects.create(
            bakeoff=bakeoff,
            number=last.number + 1,
            published_at=now,
            created_at=now,
            created_by=actor,
            note=note,
            mode=publication.mode if publication else last.mode,
            aliases=publication.aliases if publication else last.aliases,
            changes=moved,
        )
        versions.store(version, frozen)
        audit.record(
            bakeoff,
            audit.ERRATUM_PUBLISHED,
            Subject(ERRATUM, {"version": version.number}),
            actor=by,
            now=now,
            version=version.number,
            note=note,
            changes=moved,
        )
        signals.erratum_published.send(
            sender=ResultsVersion, bakeoff=bakeoff, version=version, now=now
        )
    return version


def _utc(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def do_open_standing(
    bakeoff: Bakeoff, *, by: User | None = None, now: datetime | None = None
) -> Publication:
    """Make a bakeoff whose timetable is over a standing leaderboard (docs/phases.md): the runs
    still waiting are scored here (the publication freezes what is scored), the results are
    published now with names, and every track opens for post-bakeoff runs."""
    now = now or clock.now()
    waiting = Submission.objects.filter(
        track__corpus__bakeoff=bakeoff,
        phase__in=official_phases(),
        status__in=(SubmissionStatus.QUEUED, SubmissionStatus.SCORING),
    )
    for pk in waiting.values_list("pk", flat=True):
        bakeoff_services.do_score_submission(pk, now=now)
    publication = do_publish(bakeoff, at=now, by=by, now=now)
    for track in Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus__bakeoff"):
        bakeoff_services.do_open_post_bakeoff(track, by=by, now=now)
    return publication
