"""Ranking a track when its scores change, and publishing a bakeoff's results.

``rank_track`` runs when bakeoff announces a stored score (``bakeoff.signals.score_stored``,
see ``receivers``), in the transaction that stores it. The statistics are the scoring library's
(``rank_scores``, ``row_for``, ``insignificant_pairs``, ``confidence_interval``); this module only
stores what they answer.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

import scoring
from bakeoff import clock
from bakeoff.access import User
from bakeoff.errors import Refused
from bakeoff.models import (
    Bakeoff,
    Score,
    Site,
    Submission,
    SubmissionKind,
    SubmissionPhase,
    Track,
)
from scoring import row_for

from . import signals
from .models import (
    PostBakeoffStanding,
    Publication,
    PublicationMode,
    TrackRanking,
    TrackStanding,
)

REFERENCE_ORDER = (SubmissionKind.BASELINE, SubmissionKind.TOPLINE)


def rank_track(track: Track | int, *, now: datetime | None = None) -> TrackRanking:
    """Rank the current word scores of a track and store the rows and the significance record.

    Only scores against the newest gold version that has any are ranked: while runs are scored
    again after a new gold, the others count as pending rather than mixing two gold standards.
    Rankings of one track are serialised by a row lock, so two workers storing scores at once
    cannot leave a table that misses one of them.

    Only test runs are official. Post-bakeoff runs scored against the same gold are stored apart
    (``PostBakeoffStanding``), without a rank, beside the official rows (docs/phases.md).
    """
    now = now or clock.now()
    track_id = track if isinstance(track, int) else track.pk
    with transaction.atomic():
        TrackRanking.objects.get_or_create(track_id=track_id, defaults={"computed_at": now})
        ranking = TrackRanking.objects.select_for_update().get(track_id=track_id)
        every = list(
            Score.objects.filter(
                submission__track_id=track_id,
                submission__phase__in=(SubmissionPhase.TEST, SubmissionPhase.POST_BAKEOFF),
                metric="word",
                superseded_at__isnull=True,
            )
            .select_related("submission", "gold_version")
            .order_by("submission_id")
        )
        current = [s for s in every if s.submission.phase == SubmissionPhase.TEST]
        newest = max((s.gold_version.number for s in current), default=None)
        scores = [s for s in current if s.gold_version.number == newest]
        runs = {str(s.submission_id): s for s in scores if s.submission.kind == SubmissionKind.RUN}
        ranked = scoring.rank_scores(
            {pk: scoring.Score.from_dict(s.result) for pk, s in runs.items()}
        )
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
            track_id=track_id, phase=SubmissionPhase.TEST
        ).count() - len(scores)
        ranking.best_f = ranked[0].score.f if ranked else None
        ranking.baseline_f = reference_f.get(SubmissionKind.BASELINE)
        ranking.topline_f = reference_f.get(SubmissionKind.TOPLINE)
        ranking.oov_rate = scores[0].oov_rate if scores else None
        ranking.save()
        unofficial = [
            s
            for s in every
            if s.submission.phase == SubmissionPhase.POST_BAKEOFF
            and (newest is None or s.gold_version.number == newest)
        ]
        _store_post_bakeoff(track_id, unofficial, {row.name: runs[row.name] for row in ranked}, f_b)
    return ranking


def _store_post_bakeoff(
    track_id: int, scores: list[Score], official: dict[str, Score], f_b: dict[int, float | None]
) -> None:
    """The post-bakeoff rows: by F, each with its intervals and the official ranked runs it is
    not significantly different from. ``official`` is untouched: these rows have no rank."""
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
                insignificant_with=[
                    int(pk)
                    for pk, other in against.items()
                    if not scoring.significantly_different(figures, other)
                ],
            )
        )
    PostBakeoffStanding.objects.filter(track_id=track_id).delete()
    PostBakeoffStanding.objects.bulk_create(rows)


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
    once public they stay public."""
    if at < bakeoff.submission_deadline:
        raise Refused(
            "Results cannot be published before the submission deadline "
            f"({_utc(bakeoff.submission_deadline)}): the gold standard is released with them."
        )
    published = bakeoff.results_published  # set, when is_published
    if published is not None and bakeoff.is_published(now) and at > now:
        raise Refused(
            f"The results were published at {_utc(published)}; "
            "they cannot be taken back until a later time."
        )


def do_publish(
    bakeoff: Bakeoff,
    *,
    at: datetime,
    mode: str = PublicationMode.NAMES,
    by: User | None = None,
    now: datetime | None = None,
) -> Publication:
    """Publish the results at ``at`` (now or later), with site names or codes P1, P2...

    The codes are fixed now, in the order of the site codes, for the sites that have a run.
    """
    now = now or clock.now()
    if mode not in PublicationMode.values:
        raise Refused(f"Unknown publication mode {mode!r}.")
    check_can_publish(bakeoff, at, now)
    sites = (
        Site.objects.filter(
            bakeoff=bakeoff, number__isnull=False, submissions__phase=SubmissionPhase.TEST
        )
        .distinct()
        .order_by("number")
    )
    aliases = {str(pk): f"P{i}" for i, pk in enumerate(sites.values_list("pk", flat=True), 1)}
    with transaction.atomic():
        Bakeoff.objects.filter(pk=bakeoff.pk).update(results_published=at)
        publication, _ = Publication.objects.update_or_create(
            bakeoff=bakeoff,
            defaults={
                "mode": mode,
                "aliases": aliases,
                "decided_at": now,
                "decided_by": by if isinstance(by, AbstractBaseUser) else None,
            },
        )
        signals.results_published.send(
            sender=Publication, bakeoff=bakeoff, publication=publication, at=at, now=now
        )
    bakeoff.results_published = at
    return publication


def do_withdraw_publication(bakeoff: Bakeoff, *, now: datetime | None = None) -> None:
    """Cancel a publication that has not happened yet; a past one cannot be taken back."""
    now = now or clock.now()
    published = bakeoff.results_published  # set, when is_published
    if published is not None and bakeoff.is_published(now):
        raise Refused(
            f"The results were published at {_utc(published)}; "
            "the gold standard has been released and cannot be withdrawn."
        )
    with transaction.atomic():
        Bakeoff.objects.filter(pk=bakeoff.pk).update(results_published=None)
        Publication.objects.filter(bakeoff=bakeoff).delete()
    bakeoff.results_published = None


def _utc(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
