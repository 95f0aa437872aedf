"""Computing and storing the analysis of a track when its scores change (docs/measures/buckets.md,
bootstrap.md).

``do_analyse_track`` is the only writer: it reads the track's stored standings (what
``leaderboard.services.rank_track`` ranked), scores each run's file again for its per-word
facts, and stores per run the attribute buckets with their bootstrap intervals and the
self-diagnosis, and per track the attribute profile and the paired bootstrap of every pair of
runs, all on one seeded resampling of the sentences. Running it twice stores the same rows.
"""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

from django.conf import settings
from django.db import transaction

import scoring
from bakeoff import clock
from bakeoff.models import Bakeoff, Corpus, GoldVersion, Track
from bakeoff.services import gold_index_for, uploads
from leaderboard.models import TrackStanding
from scoring import (
    DEFAULT_SEED,
    SCHEME_NAMES,
    Resampling,
    RunBuckets,
    ScoredRun,
    all_pairs_bootstrap,
    analyse_runs,
    criterion_discrepancy,
    score_run_details,
    segmentation_words,
    self_diagnosis,
    track_profile,
)

from . import prepared
from .models import CriterionDiscrepancy, RunAnalysis, TrackAnalysis

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def pair_key(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


def do_analyse_track(track_id: int, *, now: datetime | None = None) -> TrackAnalysis | None:
    """Analyse every ranked run of a track and store the results; idempotent.

    The scores analysed are recorded: when the track's standings still hold exactly those (a
    burst of scores already analysed together, or a task delivered twice), nothing is computed.
    """
    started = now or clock.now()
    track = Track.objects.select_related("corpus__bakeoff").get(pk=track_id)
    standings = list(
        TrackStanding.objects.filter(track=track)
        .select_related("score__gold_version__corpus", "submission")
        .order_by("position")
    )
    if not standings:
        return None
    scores = sorted(s.score_id for s in standings)
    done = TrackAnalysis.objects.filter(track=track).first()
    if done is not None and _answers(done, scores, track.bucket_scheme):
        return done
    gold = standings[0].score.gold_version
    prepared_track = prepared.prepared_track(gold, track.bucket_scheme)
    index = gold_index_for(gold)
    details = [
        score_run_details(
            uploads.read_stored(s.submission.file), index, aligned_lines=gold.aligned_lines
        )
        for s in standings
    ]
    resampling = Resampling.draw(
        prepared_track.lines, samples=settings.ANALYSIS_BOOTSTRAP_SAMPLES, seed=DEFAULT_SEED
    )
    analyses = analyse_runs(prepared_track, details, resampling=resampling)
    systems = [a for s, a in zip(standings, analyses, strict=True) if s.rank is not None]
    profile = track_profile(prepared_track, systems)
    pairs = _paired_bootstraps(standings, details, resampling)
    ranked = [s.submission_id for s in standings if s.rank is not None]
    computed = clock.now()
    with transaction.atomic():
        TrackAnalysis.objects.get_or_create(
            track=track, defaults={"started_at": started, "computed_at": computed}
        )
        stored = TrackAnalysis.objects.select_for_update().get(track=track)
        if stored.started_at > started:
            return stored  # a later analysis, which saw more, was stored meanwhile
        for standing, analysis in zip(standings, analyses, strict=True):
            _store_run(standing, analysis, computed)
        stored.gold_version = gold
        stored.started_at = started
        stored.computed_at = computed
        stored.scheme = prepared_track.scheme.to_dict()
        stored.scheme_checksum = prepared_track.scheme.checksum
        stored.signature = analyses[0].signature.to_dict()
        stored.unavailable = prepared_track.attributes.unavailable
        stored.profile = [{"attribute": p.attribute, **p.to_dict()} for p in profile]
        stored.adjacent = [pairs[pair_key(a, b)] for a, b in pairwise(ranked)]
        stored.pairs = pairs
        stored.scores = scores
        stored.error = ""
        stored.save()
    do_update_criterion(track.corpus.bakeoff, now=computed)
    return stored


def _answers(analysis: TrackAnalysis, scores: list[int], scheme: str) -> bool:
    """Whether a stored analysis is of exactly these scores, by this version of the library and
    the track's bucket scheme."""
    return (
        not analysis.error
        and analysis.scores == scores
        and analysis.signature.get("scorer_version") == scoring.__version__
        and analysis.signature.get("scheme") == SCHEME_NAMES[scheme]
    )


def _store_run(standing: TrackStanding, analysis: RunBuckets, now: datetime) -> None:
    RunAnalysis.objects.update_or_create(
        score=standing.score,
        defaults={
            "submission_id": standing.submission_id,
            "buckets": analysis.to_dict(),
            "self_diagnosis": {d.attribute: d.to_dict() for d in self_diagnosis(analysis)},
            "scheme_checksum": analysis.signature.scheme_checksum,
            "computed_at": now,
        },
    )


def _paired_bootstraps(
    standings: list[TrackStanding], details: list[ScoredRun], resampling: Resampling
) -> dict[str, dict[str, object]]:
    """The paired bootstrap (docs/measures/bootstrap.md) of every pair of runs, on one resampling
    of sentences (``scoring.all_pairs_bootstrap``), keyed by the pair of submissions."""
    runs = {str(s.submission_id): run for s, run in zip(standings, details, strict=True)}
    found: dict[str, dict[str, object]] = {}
    for pair in all_pairs_bootstrap(runs, resampling=resampling):
        a, b = int(pair.upper), int(pair.lower)
        found[pair_key(a, b)] = {
            "upper": a,
            "lower": b,
            "probability": pair.probability,
            "samples": pair.samples,
            "seed": pair.seed,
        }
    return found


def do_record_failure(track_id: int, reason: str, *, now: datetime | None = None) -> None:
    now = now or clock.now()
    TrackAnalysis.objects.update_or_create(
        track_id=track_id,
        defaults={"error": reason},
        # Created with the epoch as its start, so that no pending request is taken as answered.
        create_defaults={"error": reason, "started_at": EPOCH, "computed_at": now},
    )


def do_update_criterion(bakeoff: Bakeoff, *, now: datetime | None = None) -> int:
    """Ψ of every corpus with a training text against every corpus's current gold
    (docs/measures/criterion.md); only pairs whose training text or gold changed are computed.
    Answers how many were."""
    now = now or clock.now()
    corpora = list(Corpus.objects.filter(bakeoff=bakeoff).order_by("abbreviation"))
    golds = {c.pk: g for c in corpora if (g := c.current_gold()) is not None and not g.needs_review}
    stored = {
        (d.training_corpus_id, d.test_corpus_id): d
        for d in CriterionDiscrepancy.objects.filter(training_corpus__bakeoff=bakeoff)
    }
    words: dict[int, list[str]] = {}
    computed = 0
    for training_corpus in corpora:
        training = prepared.training_for(training_corpus)
        if training is None:
            continue
        for test_corpus in corpora:
            gold = golds.get(test_corpus.pk)
            if gold is None:
                continue
            old = stored.get((training_corpus.pk, test_corpus.pk))
            if old and old.test_gold_id == gold.pk and old.training_checksum == training.checksum:
                continue
            if test_corpus.pk not in words:
                words[test_corpus.pk] = _gold_words(gold)
            CriterionDiscrepancy.objects.update_or_create(
                training_corpus=training_corpus,
                test_corpus=test_corpus,
                defaults={
                    "test_gold": gold,
                    "training_checksum": training.checksum,
                    "value": criterion_discrepancy(training, words[test_corpus.pk]),
                    "computed_at": now,
                },
            )
            computed += 1
    return computed


def _gold_words(gold: GoldVersion) -> list[str]:
    return segmentation_words(gold_index_for(gold).segmentation)
