"""Ranking a track when its scores change (publishing the results is ``publication``).

``rank_track`` runs when bakeoff announces a stored score (``bakeoff.signals.score_stored``,
see ``receivers``), in the transaction that stores it. The statistics are the scoring library's
(``rank_scores``, ``row_for``, ``insignificant_pairs``, ``confidence_interval``); this module only
stores what they answer.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Count, Max

import scoring
from bakeoff import clock
from bakeoff.models import (
    Bakeoff,
    Score,
    Submission,
    SubmissionKind,
    Track,
)
from bakeoff.phase_table import Table, official_phases, shown_in
from scoring import row_for

from ..models import (
    PostBakeoffStanding,
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
