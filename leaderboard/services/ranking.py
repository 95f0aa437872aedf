"""Ranking a track when its scores change (publishing the results is ``publication``).

A track is ranked when bakeoff announces a stored score, a withdrawal or a late mark
(``bakeoff.signals``, see ``receivers``): computed without holding the track, stored under a short
lock in the transaction of the change when no other process ranks the track, else after its
commit (``rank_when_free``, ``rank_until_current``). The statistics are the scoring library's
(``rank_scores``, ``row_for``, ``insignificant_pairs``, ``confidence_interval``); this module only
stores what they answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

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

from .. import signals
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
    number and the newest id."""
    seen = Score.objects.filter(submission__track_id=track_id, metric="word").aggregate(
        n=Count("pk"), last=Max("pk")
    )
    return f"{seen['n']}:{seen['last'] or 0}"


# A ranking is computed without holding the track (``_compute``: reading the scores, ranking them,
# the significance, the rows), then stored under a short lock on the track's TrackRanking row
# (``_store``: the rows written, ``revision`` counted up), only if no other ranking was stored
# since the computation began (the revision it read is still the row's): a ranking read before
# another's never overwrites it. A process whose ranking was not stored ranks again after its
# commit until the stored ranking has read every stored score (``rank_until_current``).
PASSES = 20  # then the last pass ranks under the lock (rank_track): bounded however busy the track


@dataclass
class _Ranked:
    """A track's ranking as computed from what one read saw: what ``_store`` writes."""

    fingerprint: str
    standings: list[TrackStanding]
    post_bakeoff: list[PostBakeoffStanding]
    figures: dict[str, Any]


def rank_when_free(track_id: int, *, now: datetime | None = None) -> bool:
    """Rank the track in the caller's transaction (a stored score, a withdrawal, a late mark:
    ``receivers``), computed without holding the track, and store it if no other process holds
    the track's ranking nor stored one since this one began. Answers whether it was stored; if
    not, the caller ranks again after its commit (``rank_until_current``): a second scoring
    process never waits for the first's ranking."""
    now = now or clock.now()
    seen = TrackRanking.objects.filter(track_id=track_id).values_list("revision", flat=True)
    revision = seen.first()
    ranked = _compute(track_id)
    with transaction.atomic():
        ranking = _locked(track_id, now, wait=False, exists=revision is not None)
        if ranking is None or ranking.revision != (revision or 0):
            return False
        _store(ranking, ranked, now)
    return True


def rank_until_current(track_id: int, *, again: bool = False) -> None:
    """After the commit of a change whose ranking was not stored (``rank_when_free`` answered
    False): rank the track until the stored ranking has read every stored score, or with
    ``again`` (a withdrawal or a late mark, which no score counts) until a ranking computed after
    the commit is stored. Each pass computes without holding the track and waits only for the
    short store of another process."""
    for _pass in range(PASSES):
        seen = TrackRanking.objects.filter(track_id=track_id).values_list("revision", "fingerprint")
        found = seen.first()
        revision, stored = found or (0, None)
        fingerprint = scores_fingerprint(track_id)
        if stored == fingerprint and not again:
            return  # a ranking that read this change was stored (by this process or another)
        ranked = _compute(track_id, fingerprint=fingerprint)
        now = clock.now()
        with transaction.atomic():
            ranking = _locked(track_id, now, wait=True, exists=found is not None)
            assert ranking is not None  # it waited for the lock
            if ranking.revision == revision:
                _store(ranking, ranked, now)
                return
    rank_track(track_id)


def rank_track(track: Track | int, *, now: datetime | None = None) -> TrackRanking:
    """Rank the current word scores of a track and store the rows and the significance record,
    holding the track's ranking from the read to the commit (the balanced scores, ``rank_all``).

    Only scores against the newest gold version that has any are ranked: while runs are scored
    again after a new gold, the others count as pending rather than mixing two gold standards.

    Only test runs are official. Post-bakeoff runs scored against the same gold are stored apart
    (``PostBakeoffStanding``), without a rank, beside the official rows (docs/phases.md).
    """
    now = now or clock.now()
    with transaction.atomic():
        ranking = _locked(track if isinstance(track, int) else track.pk, now, wait=True)
        assert ranking is not None  # it waited for the lock
        _store(ranking, _compute(ranking.track_id), now)
    return ranking


def _locked(
    track_id: int, now: datetime, *, wait: bool, exists: bool = False
) -> TrackRanking | None:
    """The track's ranking row (made first unless it ``exists``), locked; None when ``wait`` is
    False and another process holds it. Its pairs are not read: ``_store`` writes them."""
    if not exists:
        TrackRanking.objects.get_or_create(track_id=track_id, defaults={"computed_at": now})
    locked = TrackRanking.objects.select_for_update(skip_locked=not wait)
    return locked.defer("insignificant_pairs").filter(track_id=track_id).first()


def _store(ranking: TrackRanking, ranked: _Ranked, now: datetime) -> None:
    """Write a computed ranking: the track's rows replaced, its figures, one revision more.
    The caller holds the ranking's row lock."""
    track_id = ranking.track_id
    TrackStanding.objects.filter(track_id=track_id).delete()
    TrackStanding.objects.bulk_create(ranked.standings)
    PostBakeoffStanding.objects.filter(track_id=track_id).delete()
    PostBakeoffStanding.objects.bulk_create(ranked.post_bakeoff)
    for name, value in ranked.figures.items():
        setattr(ranking, name, value)
    ranking.fingerprint = ranked.fingerprint
    ranking.computed_at = now
    ranking.revision += 1
    ranking.save()
    signals.track_ranked.send(sender=TrackRanking, track_id=track_id, now=now)


def _compute(track_id: int, *, fingerprint: str | None = None) -> _Ranked:
    """The ranking of the scores as this read sees them; ``fingerprint``, read before them, says
    at least what they include."""
    if fingerprint is None:
        fingerprint = scores_fingerprint(track_id)
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
    ranked = scoring.rank_scores({pk: scoring.Score.from_dict(s.result) for pk, s in runs.items()})
    # Runs tied on F stand in the order they arrived: run ids are random (new_run_id), so
    # the library's order by name would shuffle a tie between editions of the same data.
    ranked.sort(key=lambda row: (row.rank, runs[row.name].submission.received_at, row.name))
    references = sorted(
        (s for s in scores if s.submission.kind != SubmissionKind.RUN),
        key=lambda s: REFERENCE_ORDER.index(s.submission.kind),
    )
    rows = ranked + [
        row_for(str(s.submission_id), scoring.Score.from_dict(s.result), None) for s in references
    ]
    by_pk = {str(s.submission_id): s for s in scores}
    standings = [
        _standing(track_id, by_pk[row.name], row, position) for position, row in enumerate(rows, 1)
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
    pairs = scoring.insignificant_pairs({row.name: row.score for row in ranked})
    reference_f = {s.submission.kind: s.f for s in references}
    unofficial = [
        s
        for s in every
        if s.submission.phase_facts.table is Table.POST_BAKEOFF
        and (newest is None or s.gold_version.number == newest)
    ]
    official = {row.name: runs[row.name] for row in ranked}
    official.update((str(s.submission_id), s) for s in references)
    figures = {
        "gold_version": scores[0].gold_version if scores else None,
        "insignificant_pairs": [[int(a), int(b)] for a, b in pairs],
        "ranked_runs": len(ranked),
        "sites": len({runs[row.name].submission.site_id for row in ranked}),
        "pending_runs": Submission.objects.filter(
            track_id=track_id, phase__in=official_phases(), late=False, withdrawn_at__isnull=True
        ).count()
        - len(scores),
        "best_f": ranked[0].score.f if ranked else None,
        "baseline_f": reference_f.get(SubmissionKind.BASELINE),
        "topline_f": reference_f.get(SubmissionKind.TOPLINE),
        "oov_rate": scores[0].oov_rate if scores else None,
    }
    post_bakeoff = _post_bakeoff_rows(track_id, unofficial, official, f_b)
    return _Ranked(fingerprint, standings, post_bakeoff, figures)


def _post_bakeoff_rows(
    track_id: int, scores: list[Score], official: dict[str, Score], f_b: dict[int, float | None]
) -> list[PostBakeoffStanding]:
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
    against = {pk: scoring.Score.from_dict(s.result) for pk, s in official.items() if scores}
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
    return rows


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
