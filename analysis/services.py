"""Computing and storing the analysis of a track when its scores change (docs/measures/buckets.md,
bootstrap.md).

``do_analyse_track`` is the only writer: it reads the track's stored standings (what
``leaderboard.services.rank_track`` ranked), scores each run's file again for its per-word
facts, and stores per run the attribute buckets with their bootstrap intervals and the
self-diagnosis, and per track the attribute profile and the paired bootstrap of every pair of
runs, all on one seeded resampling of the sentences. Running it twice stores the same rows.

It touches only what changed: a run whose score was analysed before, against the same scheme,
resamples and library, keeps its stored buckets and its F on each resample; only the new runs'
files are read and scored, and only the pairs that involve a new run are counted and stored into
the stored ones (which are neither read nor written again). The stored result is the one a full
analysis gives, number for number.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from fractions import Fraction
from itertools import combinations, pairwise
from typing import Any

import numpy as np
import numpy.typing as npt
from django.conf import settings
from django.db import connection, transaction
from django.db.models.fields.json import KT

import scoring
from bakeoff import clock
from bakeoff.failures import Failure
from bakeoff.models import Bakeoff, Corpus, GoldVersion, Score, Track
from bakeoff.services import domain_labels_for, gold_index_for, uploads
from leaderboard.models import TrackStanding
from scoring import (
    DEFAULT_SEED,
    SCHEME_NAMES,
    BucketedGold,
    Resampling,
    RunBuckets,
    ScoredRun,
    analyse_runs,
    criterion_discrepancy,
    exact_f,
    f_scores,
    score_run_details,
    segmentation_words,
    self_diagnosis,
    track_profile,
)
from scoring.fine.domains import domain_lines

from . import prepared
from .models import CriterionDiscrepancy, RunAnalysis, TrackAnalysis

FloatArray = npt.NDArray[np.float64]

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
    labels = domain_labels_for(track.corpus)
    labels_checksum = track.corpus.domain_labels_checksum if labels is not None else ""
    # Without its pairs (every pair of runs: some 45,000 on a 300-run track, megabytes of JSON):
    # an analysis after a new score stores the pairs that changed into them (``_store_pairs``).
    done = TrackAnalysis.objects.filter(track=track).defer("pairs").first()
    if done is not None and _answers(done, scores, track.bucket_scheme, labels_checksum):
        return done
    gold = standings[0].score.gold_version
    prepared_track = prepared.prepared_track(gold, track.bucket_scheme)
    resampling = Resampling.draw(
        prepared_track.lines, samples=settings.ANALYSIS_BOOTSTRAP_SAMPLES, seed=DEFAULT_SEED
    )
    kept = _reusable(
        done, gold, prepared_track.scheme.checksum, standings, resampling, labels_checksum
    )
    new = [s for s in standings if s.score_id not in kept]
    details = []
    if new:
        index = gold_index_for(gold)
        details = [
            score_run_details(
                uploads.read_stored(s.submission.file), index, aligned_lines=gold.aligned_lines
            )
            for s in new
        ]
    analysed = dict(
        zip(
            (s.score_id for s in new),
            analyse_runs(prepared_track, details, resampling=resampling) if new else [],
            strict=True,
        )
    )
    resampled = dict(zip((s.score_id for s in new), _resampled_f(details, resampling), strict=True))
    by_domain = _domain_analyses(prepared_track, details, labels, labels_checksum)
    per_domain = dict(zip((s.score_id for s in new), by_domain, strict=True)) if by_domain else {}
    for score_id, run in kept.items():
        analysed[score_id] = RunBuckets.from_dict(run.buckets)
        resampled[score_id] = np.frombuffer(bytes(run.resampled_f or b""), np.float64)
    analyses = [analysed[s.score_id] for s in standings]
    systems = [a for s, a in zip(standings, analyses, strict=True) if s.rank is not None]
    profile = track_profile(prepared_track, systems)
    # The pairs of two runs that the stored analysis had, both kept, are stored already.
    before = set(done.scores) if kept and done is not None else set()
    paired = {score_id for score_id in kept if score_id in before}
    pairs = _paired_bootstraps(standings, resampled, resampling, paired)
    adjacent = [
        _pair(standings[i], standings[j], resampled, resampling)
        for i, j in pairwise(i for i, s in enumerate(standings) if s.rank is not None)
    ]
    computed = clock.now()
    with transaction.atomic():
        if done is None:  # (get_or_create alone would read the stored pairs)
            TrackAnalysis.objects.get_or_create(
                track=track, defaults={"started_at": started, "computed_at": computed}
            )
        # Locked without the large fields read above: every one of them is written again here.
        locked = (
            TrackAnalysis.objects.select_for_update()
            .defer("scheme", "signature", "unavailable", "profile", "adjacent", "pairs", "scores")
            .get(track=track)
        )
        if locked.started_at > started:
            return locked  # a later analysis, which saw more, was stored meanwhile
        # Another analysis stored since this one read: the pairs stored are not those it read.
        stored = TrackAnalysis.objects.filter(pk=locked.pk).values_list("scores", flat=True)
        stored_meanwhile = done is not None and bool(paired) and stored.get() != done.scores
        for standing in new:
            _store_run(
                standing,
                analysed[standing.score_id],
                resampled[standing.score_id],
                computed,
                per_domain.get(standing.score_id, {}),
            )
        locked.gold_version = gold
        locked.started_at = started
        locked.computed_at = computed
        locked.scheme = prepared_track.scheme.to_dict()
        locked.scheme_checksum = prepared_track.scheme.checksum
        locked.signature = analyses[0].signature.to_dict()
        locked.unavailable = prepared_track.attributes.unavailable
        locked.profile = [{"attribute": p.attribute, **p.to_dict()} for p in profile]
        locked.adjacent = adjacent
        if not paired:
            locked.pairs = pairs
        locked.scores = scores
        locked.domain_labels = labels_checksum
        locked.error = ""
        locked.error_code = ""
        locked.error_params = {}
        if not stored_meanwhile:
            locked.save()
            if paired:
                _store_pairs(locked, pairs, standings, done)
    if stored_meanwhile:
        return do_analyse_track(track_id, now=now)
    do_update_criterion(track.corpus.bakeoff, now=computed)
    return locked


def _reusable(
    done: TrackAnalysis | None,
    gold: GoldVersion,
    scheme_checksum: str,
    standings: list[TrackStanding],
    resampling: Resampling,
    labels_checksum: str = "",
) -> dict[int, RunAnalysis]:
    """The stored run analyses that this analysis would compute again identically, by score:
    the previous analysis was of the same gold, scheme, resamples and library, and stored the
    run's F on each resample."""
    if (
        done is None
        or done.error
        or done.gold_version_id != gold.pk
        or done.scheme_checksum != scheme_checksum
        or done.signature.get("scorer_version") != scoring.__version__
        or done.signature.get("samples") != resampling.samples
        or done.signature.get("seed") != resampling.seed
    ):
        return {}
    runs = (
        RunAnalysis.objects.filter(
            score_id__in=[s.score_id for s in standings],
            scheme_checksum=scheme_checksum,
            resampled_f__isnull=False,
        )
        # what is kept of a run is its buckets and F per resample; of its figures per domain,
        # only the labels they were cut by are compared (the rest, with the self-diagnosis, is
        # not read: 300 runs of it after each score)
        .defer("self_diagnosis", "domains")
        .annotate(labels=KT("domains__labels"))
    )
    size = resampling.samples * np.dtype(np.float64).itemsize
    return {
        run.score_id: run
        for run in runs
        if run.buckets.get("signature") == done.signature
        and len(run.resampled_f or b"") == size
        and (run.labels or "") == labels_checksum
    }


def _answers(
    analysis: TrackAnalysis, scores: list[int], scheme: str, labels_checksum: str = ""
) -> bool:
    """Whether a stored analysis is of exactly these scores, by this version of the library,
    the track's bucket scheme and the corpus's domain labels."""
    return (
        not analysis.error
        and analysis.scores == scores
        and analysis.domain_labels == labels_checksum
        and analysis.signature.get("scorer_version") == scoring.__version__
        and analysis.signature.get("scheme") == SCHEME_NAMES[scheme]
    )


def _domain_analyses(
    prepared_track: BucketedGold,
    details: list[ScoredRun],
    labels: tuple[str, ...] | None,
    labels_checksum: str,
) -> list[dict[str, Any]]:
    """Per run, its buckets and self-diagnosis on the lines of each domain alone, each domain's
    sentences resampled on their own (docs/measures/buckets.md#domains); empty without labels."""
    if not details or labels is None or len(labels) != prepared_track.lines:
        return []
    found: list[dict[str, Any]] = [
        {"labels": labels_checksum, "buckets": {}, "self_diagnosis": {}} for _ in details
    ]
    for domain, mask in domain_lines(labels).items():
        resampling = Resampling.draw(
            int(np.count_nonzero(mask)),
            samples=settings.ANALYSIS_BOOTSTRAP_SAMPLES,
            seed=DEFAULT_SEED,
        )
        runs = analyse_runs(prepared_track, details, lines=mask, resampling=resampling)
        for place, run in zip(found, runs, strict=True):
            place["buckets"][domain] = run.to_dict()
            place["self_diagnosis"][domain] = {
                d.attribute: d.to_dict() for d in self_diagnosis(run)
            }
    return found


def _store_run(
    standing: TrackStanding,
    analysis: RunBuckets,
    resampled_f: FloatArray,
    now: datetime,
    domains: dict[str, Any],
) -> None:
    RunAnalysis.objects.update_or_create(
        score=standing.score,
        defaults={
            "submission_id": standing.submission_id,
            "buckets": analysis.to_dict(),
            "self_diagnosis": {d.attribute: d.to_dict() for d in self_diagnosis(analysis)},
            "scheme_checksum": analysis.signature.scheme_checksum,
            "resampled_f": np.ascontiguousarray(resampled_f, np.float64).tobytes(),
            "domains": domains,
            "computed_at": now,
        },
    )


def _resampled_f(details: list[ScoredRun], resampling: Resampling) -> list[FloatArray]:
    """Each run's F on each resample of the sentences (0 where a resample has no word)."""
    if not details:
        return []
    counts = [run.line_counts() for run in details]
    columns = np.column_stack([counts[0][0], *(c for _, r, k in counts for c in (r, k))])
    totals = resampling.totals(columns)
    f = np.nan_to_num(f_scores(totals[:, :1], totals[:, 1::2], totals[:, 2::2]), nan=0.0)
    return [np.ascontiguousarray(f[:, j]) for j in range(len(details))]


def _paired_bootstraps(
    standings: list[TrackStanding],
    resampled: dict[int, FloatArray],
    resampling: Resampling,
    paired: set[int],
) -> dict[str, dict[str, object]]:
    """The paired bootstrap (docs/measures/bootstrap.md) of every pair of runs, on one resampling of
    sentences, but the pairs of two runs in ``paired`` (by score: their pair is stored already).

    Per pair, the upper run has the higher F on the whole test set (the one placed first on a
    tie); the probability is the share of resamples where the lower run's F is not below the
    upper's, a tie counting one half, as ``scoring.bootstrap.paired_bootstrap`` defines it,
    counted from the runs' F on each resample (``resampled``, by score).
    """
    exact = [_exact(s) for s in standings]
    f = np.column_stack([resampled[s.score_id] for s in standings])
    fresh = [i for i, s in enumerate(standings) if s.score_id not in paired]
    # Per run whose pairs are computed, its wins and ties against every run, in one pass.
    wins: dict[int, npt.NDArray[np.int64]] = {}
    ties: dict[int, npt.NDArray[np.int64]] = {}
    for i in fresh:
        column = f[:, i : i + 1]
        wins[i] = np.count_nonzero(column > f, axis=0)  # i below as the lower run, j as the upper
        ties[i] = np.count_nonzero(column == f, axis=0)
    found: dict[str, dict[str, object]] = {}
    for i, j in combinations(range(len(standings)), 2):
        if i not in wins and j not in wins:
            continue
        upper, lower = (i, j) if exact[i] >= exact[j] else (j, i)
        if lower in wins:
            won, tied = int(wins[lower][upper]), int(ties[lower][upper])
        else:  # the upper run is the fresh one: the lower wins where it loses
            won = resampling.samples - int(wins[upper][lower]) - int(ties[upper][lower])
            tied = int(ties[upper][lower])
        a, b = standings[upper].submission_id, standings[lower].submission_id
        found[pair_key(a, b)] = _bootstrap(a, b, won, tied, resampling)
    return found


def _pair(
    first: TrackStanding,
    second: TrackStanding,
    resampled: dict[int, FloatArray],
    resampling: Resampling,
) -> dict[str, object]:
    """The paired bootstrap of two runs (``first`` placed before ``second``), as
    ``_paired_bootstraps`` counts it."""
    upper, lower = (first, second) if _exact(first) >= _exact(second) else (second, first)
    f_upper, f_lower = resampled[upper.score_id], resampled[lower.score_id]
    won = int(np.count_nonzero(f_lower > f_upper))
    tied = int(np.count_nonzero(f_lower == f_upper))
    return _bootstrap(upper.submission_id, lower.submission_id, won, tied, resampling)


def _exact(standing: TrackStanding) -> Fraction:
    score = standing.score
    return exact_f(score.correct, score.true_words, score.test_words)


def _bootstrap(
    upper: int, lower: int, won: int, tied: int, resampling: Resampling
) -> dict[str, object]:
    return {
        "upper": upper,
        "lower": lower,
        "probability": float(won + tied / 2) / resampling.samples,
        "samples": resampling.samples,
        "seed": resampling.seed,
    }


def _store_pairs(
    analysis: TrackAnalysis,
    fresh: dict[str, dict[str, object]],
    standings: list[TrackStanding],
    done: TrackAnalysis | None,
) -> None:
    """Into the stored pairs (every pair of the runs the stored analysis had): the ``fresh``
    ones, and without those of a run that is no longer ranked. The database changes the stored
    document in place, so that the pairs kept are neither read nor written again here."""
    current = {s.submission_id for s in standings}
    before = Score.objects.filter(pk__in=done.scores if done is not None else []).values_list(
        "submission_id", flat=True
    )
    gone = set(before) - current
    removed = sorted(pair_key(a, b) for a in gone for b in set(before) | current if a != b)
    table = connection.ops.quote_name(TrackAnalysis._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"UPDATE {table} SET pairs = (pairs - %s::text[]) || %s::jsonb WHERE id = %s",
                [removed, json.dumps(fresh), analysis.pk],
            )
        else:  # SQLite: a merge patch, in which null removes a key
            patch = {key: None for key in removed} | fresh
            cursor.execute(
                f"UPDATE {table} SET pairs = json_patch(pairs, %s) WHERE id = %s",
                [json.dumps(patch), analysis.pk],
            )


def do_record_failure(track_id: int, reason: Failure, *, now: datetime | None = None) -> None:
    """Record why a track's analysis failed (kept as its English text and as its code, for
    readers of other languages); the scores stand without it."""
    now = now or clock.now()
    error = {"error": reason.english, "error_code": reason.code, "error_params": reason.params}
    TrackAnalysis.objects.update_or_create(
        track_id=track_id,
        defaults=error,
        # Created with the epoch as its start, so that no pending request is taken as answered.
        create_defaults={**error, "started_at": EPOCH, "computed_at": now},
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
