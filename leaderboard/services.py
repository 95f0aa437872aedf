"""Ranking a track when its scores change, and publishing a bakeoff's results.

``rank_track`` runs when bakeoff announces a stored score (``bakeoff.signals.score_stored``,
see ``receivers``), in the transaction that stores it. The statistics are the scoring library's
(``rank_scores``, ``row_for``, ``insignificant_pairs``, ``confidence_interval``); this module only
stores what they answer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext_lazy as _

import scoring
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
    Score,
    Site,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    Track,
    run_label,
)
from bakeoff.phase_table import Table, official_phases, shown_in
from scoring import row_for

from . import signals, versions
from .models import (
    PostBakeoffStanding,
    Publication,
    PublicationMode,
    ResultsVersion,
    TrackRanking,
    TrackStanding,
)

REFERENCE_ORDER = (SubmissionKind.BASELINE, SubmissionKind.TOPLINE)
# The tables ranking fills, from the word scores of the phases they show (bakeoff.phase_table).
RANKED_TABLES = (Table.OFFICIAL, Table.POST_BAKEOFF)


def scores_fingerprint(track_id: int) -> str:
    """What changes whenever a word score of the track is stored (each is a new row): their
    number and the newest id. Withdrawals, late marks and balanced scores rank at once."""
    seen = Score.objects.filter(submission__track_id=track_id, metric="word").aggregate(
        n=Count("pk"), last=Max("pk")
    )
    return f"{seen['n']}:{seen['last'] or 0}"


def rank_when_free(track_id: int, *, now: datetime | None = None) -> TrackRanking | None:
    """A stored score's ranking (``receivers.rank_the_track``), in the transaction that stores
    it: at once if no other process is ranking the track; else None, and that process ranks
    again once it is done (``rank_until_current``, after every commit that stored a score), so a
    second scoring process never waits for the first's ranking."""
    return _rank(track_id, now=now or clock.now(), wait=False)


def rank_until_current(track_id: int) -> None:
    """After a score's commit: rank the track until its ranking has read every stored score,
    unless another process holds it (which does the same once it is done)."""
    for _attempt in range(100):  # bounded: each pass reads every score committed before it
        with transaction.atomic():
            ranking = (
                TrackRanking.objects.select_for_update(skip_locked=True)
                .filter(track_id=track_id)
                .first()
            )
            if ranking is None or ranking.fingerprint == scores_fingerprint(track_id):
                return
            rank_track(track_id)


def rank_track(track: Track | int, *, now: datetime | None = None) -> TrackRanking:
    """Rank the current word scores of a track and store the rows and the significance record.

    Only scores against the newest gold version that has any are ranked: while runs are scored
    again after a new gold, the others count as pending rather than mixing two gold standards.
    Rankings of one track are serialised by a row lock, so two workers storing scores at once
    cannot leave a table that misses one of them (``rank_when_free`` does not wait for it).

    Only test runs are official. Post-bakeoff runs scored against the same gold are stored apart
    (``PostBakeoffStanding``), without a rank, beside the official rows (docs/phases.md).
    """
    ranking = _rank(track if isinstance(track, int) else track.pk, now=now or clock.now())
    assert ranking is not None  # it waited for the lock
    return ranking


def _rank(track_id: int, *, now: datetime, wait: bool = True) -> TrackRanking | None:
    with transaction.atomic():
        TrackRanking.objects.get_or_create(track_id=track_id, defaults={"computed_at": now})
        locked = TrackRanking.objects.select_for_update(skip_locked=not wait)
        found = locked.filter(track_id=track_id).first()
        if found is None:
            return None  # ranked by another process, which ranks again after (rank_until_current)
        ranking = found
        ranking.fingerprint = scores_fingerprint(track_id)
        every = list(
            Score.objects.filter(
                submission__track_id=track_id,
                submission__phase__in=[p for t in RANKED_TABLES for p in shown_in(t)],
                submission__withdrawn_at__isnull=True,  # a withdrawn run is never ranked
                metric="word",
                superseded_at__isnull=True,
            )
            .select_related("submission", "gold_version")
            .order_by("submission_id")
        )
        # runs the organiser marked late (moved deadline) are kept, never ranked
        current = [
            s
            for s in every
            if s.submission.phase_facts.table is Table.OFFICIAL and not s.submission.late
        ]
        newest = max((s.gold_version.number for s in current), default=None)
        scores = [s for s in current if s.gold_version.number == newest]
        runs = {str(s.submission_id): s for s in scores if s.submission.kind == SubmissionKind.RUN}
        ranked = scoring.rank_scores(
            {pk: scoring.Score.from_dict(s.result) for pk, s in runs.items()}
        )
        # Runs tied on F stand in the order they arrived: run ids are random (new_run_id), so
        # the library's order by name would shuffle a tie between editions of the same data.
        ranked.sort(key=lambda row: (row.rank, runs[row.name].submission.received_at, row.name))
        references = sorted(
            (s for s in scores if s.submission.kind != SubmissionKind.RUN),
            key=lambda s: REFERENCE_ORDER.index(s.submission.kind),
        )
        rows = ranked + [
            row_for(str(s.submission_id), scoring.Score.from_dict(s.result), None)
            for s in references
        ]
        by_pk = {str(s.submission_id): s for s in scores}
        standings = [
            _standing(track_id, by_pk[row.name], row, position)
            for position, row in enumerate(rows, 1)
        ]
        # Balanced F (docs/measures/balanced-f.md) of the same gold version, stored by
        # psychometric's committee.
        f_b: dict[int, float | None] = {}
        if newest is not None:  # else no score, so no standing either
            balanced = Score.objects.filter(
                submission__track_id=track_id,
                metric="balanced",
                gold_version__number=newest,
                superseded_at__isnull=True,
            )
            f_b = dict(balanced.values_list("submission_id", "f"))
        for standing in standings:
            standing.f_b = f_b.get(standing.submission_id)
        TrackStanding.objects.filter(track_id=track_id).delete()
        TrackStanding.objects.bulk_create(standings)
        pairs = scoring.insignificant_pairs({row.name: row.score for row in ranked})
        reference_f = {s.submission.kind: s.f for s in references}
        ranking.gold_version = scores[0].gold_version if scores else None
        ranking.computed_at = now
        ranking.insignificant_pairs = [[int(a), int(b)] for a, b in pairs]
        ranking.ranked_runs = len(ranked)
        ranking.sites = len({runs[row.name].submission.site_id for row in ranked})
        ranking.pending_runs = Submission.objects.filter(
            track_id=track_id, phase__in=official_phases(), late=False, withdrawn_at__isnull=True
        ).count() - len(scores)
        ranking.best_f = ranked[0].score.f if ranked else None
        ranking.baseline_f = reference_f.get(SubmissionKind.BASELINE)
        ranking.topline_f = reference_f.get(SubmissionKind.TOPLINE)
        ranking.oov_rate = scores[0].oov_rate if scores else None
        unofficial = [
            s
            for s in every
            if s.submission.phase_facts.table is Table.POST_BAKEOFF
            and (newest is None or s.gold_version.number == newest)
        ]
        official = {row.name: runs[row.name] for row in ranked}
        official.update((str(s.submission_id), s) for s in references)
        _store_post_bakeoff(track_id, unofficial, official, f_b)
        ranking.save()
    return ranking


def _store_post_bakeoff(
    track_id: int, scores: list[Score], official: dict[str, Score], f_b: dict[int, float | None]
) -> None:
    """The post-bakeoff rows: by F, each with its intervals and the official rows (ranked runs,
    then BASE and TOP) it is not significantly different from. ``official`` is untouched: these
    rows have no rank."""
    if scores:
        gold = scores[0].gold_version
        f_b = f_b or dict(
            Score.objects.filter(
                submission__track_id=track_id,
                metric="balanced",
                gold_version=gold,
                superseded_at__isnull=True,
            ).values_list("submission_id", "f")
        )
    against = {pk: scoring.Score.from_dict(s.result) for pk, s in official.items()}
    rows = []
    ordered = sorted(scores, key=lambda s: (-(s.f or 0.0), s.submission.received_at))
    for position, score in enumerate(ordered, 1):
        figures = scoring.Score.from_dict(score.result)
        row = row_for(str(score.submission_id), figures, None)
        n = figures.true_words
        assert score.submission.site_id is not None  # post-bakeoff runs are sites' runs
        rows.append(
            PostBakeoffStanding(
                track_id=track_id,
                submission_id=score.submission_id,
                score=score,
                site_id=score.submission.site_id,
                run_number=score.submission.run_number,
                position=position,
                received_at=score.submission.received_at,
                cr=row.cr,
                cp=row.cp,
                cf=scoring.confidence_interval(figures.f, n) if n else 0.0,
                f_b=f_b.get(score.submission_id),
                lines_as_gold=_share(score.result.get("lines_as_gold")),
                insignificant_with=[
                    int(pk)
                    for pk, other in against.items()
                    if not scoring.significantly_different(figures, other)
                ],
            )
        )
    PostBakeoffStanding.objects.filter(track_id=track_id).delete()
    PostBakeoffStanding.objects.bulk_create(rows)


def _share(counts: list[int] | None) -> float | None:
    """(lines as the gold, lines) as a share; None for a run scored before it was counted."""
    if not counts or not counts[1]:
        return None
    return counts[0] / counts[1]


def _standing(track_id: int, score: Score, row: scoring.RankedRow, position: int) -> TrackStanding:
    n = row.score.true_words
    return TrackStanding(
        track_id=track_id,
        submission_id=score.submission_id,
        score=score,
        site_id=score.submission.site_id,
        kind=score.submission.kind,
        run_number=score.submission.run_number,
        rank=row.rank,
        position=position,
        cr=row.cr,
        cp=row.cp,
        cf=scoring.confidence_interval(row.score.f, n) if n else 0.0,
    )


def rank_all(bakeoff: Bakeoff | None = None, *, now: datetime | None = None) -> int:
    """Rank every track again (after a deploy that changed the ranking); answers how many."""
    tracks = Track.objects.all()
    if bakeoff is not None:
        tracks = tracks.filter(corpus__bakeoff=bakeoff)
    pks = list(tracks.values_list("pk", flat=True))
    for pk in pks:
        rank_track(pk, now=now)
    return len(pks)


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
