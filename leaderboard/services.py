"""Ranking a track when its scores change, and publishing a bakeoff's results.

A track is ranked when bakeoff announces a stored score, a withdrawal or a late mark
(``bakeoff.signals``, see ``receivers``): computed without holding the track, stored under a short
lock in the transaction of the change when no other process ranks the track, else after its
commit (``rank_when_free``, ``rank_until_current``). The statistics are the scoring library's
(``rank_scores``, ``row_for``, ``insignificant_pairs``, ``confidence_interval``); this module only
stores what they answer.
"""

from __future__ import annotations

from dataclasses import dataclass
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
