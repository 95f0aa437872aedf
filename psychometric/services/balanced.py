"""Balanced scores of runs (docs/measures/balanced-f.md): every run of a rated gold gains P_b, R_b,
F_b.

- ``do_apply_committee`` (a task, once a committee is complete): every current word score of its
  gold version gains a ``balanced`` Score row (P_b, R_b, F_b, the sums, the difficulty profile,
  the hardest words found, the committee's signature), and the corpus's tracks are ranked again.
- ``do_balance_score`` (a task): the same for one word score stored later.

Rows are written only while their committee is current, under a lock on the gold version, so
two committees' figures are never mixed in one table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from django.db import transaction

from bakeoff import clock
from bakeoff.models import GoldVersion, Score
from bakeoff.services import gold_index_for, uploads
from leaderboard.services import rank_track
from scoring import balanced_score, score_run_details
from scoring.psychometric import difficulty as library_difficulty

from ..models import BALANCED, Committee, CommitteeStatus
from .committees import current_committee
from .words import forget_training_sentences, gold_words, word_positions, word_scores


@dataclass(frozen=True)
class _Prepared:
    difficulty: npt.NDArray[np.float64]
    signature: str
    hardest: tuple[npt.NDArray[np.int64], ...]  # gold word positions of each hardest type


@lru_cache(maxsize=4)
def _prepared(committee_id: int, signature: str) -> _Prepared:
    """Keyed by the signature too: a key alone could be given again to another committee (SQLite
    hands a rolled-back key out again), whose ratings would be read from this cache."""
    committee = Committee.objects.select_related("gold_version").get(pk=committee_id)
    assert committee.data is not None
    rated = library_difficulty.Committee.from_dict(committee.data)
    positions = word_positions(gold_words(committee.gold_version)) if committee.hardest else {}
    return _Prepared(
        difficulty=rated.difficulty,
        signature=rated.signature,
        hardest=tuple(positions[h["word"]] for h in committee.hardest),
    )


def balanced_figures(score: Score, committee: Committee) -> dict[str, Any]:
    """P_b, R_b, F_b of a word score's run, their sums and profile, and the hardest words found."""
    gold = score.gold_version
    scored = score_run_details(
        uploads.read_stored(score.submission.file),
        gold_index_for(gold),
        aligned_lines=gold.aligned_lines,
    )
    prepared = _prepared(committee.pk, committee.signature)
    result = balanced_score(scored, prepared.difficulty, committee=prepared.signature)
    return {
        **result.to_dict(),
        "committee_id": committee.pk,
        "committee_number": committee.number,
        "hardest_found": [int(scored.gold_correct[p].sum()) for p in prepared.hardest],
    }


def _store(score: Score, figures: dict[str, Any], committee: Committee, now: datetime) -> Score:
    """One ``balanced`` row per submission and gold version, made by the current committee."""
    balanced, _ = Score.objects.update_or_create(
        submission_id=score.submission_id,
        gold_version=score.gold_version,
        metric=BALANCED,
        defaults={
            "recall": figures["recall_b"],
            "precision": figures["precision_b"],
            "f": figures["f_b"],
            "oov_rate": None,
            "oov_recall": None,
            "iv_recall": None,
            "true_words": score.true_words,
            "test_words": score.test_words,
            "correct": score.correct,
            "oov_words": score.oov_words,
            "correct_oov": score.correct_oov,
            "result": figures,
            "signature": committee.signature[:500],
            "created_at": now,
            "superseded_at": None,
        },
    )
    Score.objects.filter(
        submission_id=score.submission_id,
        metric=BALANCED,
        superseded_at__isnull=True,
        gold_version__number__lt=score.gold_version.number,
    ).update(superseded_at=now)
    return balanced


def _still_current(committee: Committee) -> bool:
    # Serialises the stores of one gold version, so a late run cannot write an older committee's
    # figures over the new committee's.
    list(GoldVersion.objects.select_for_update().filter(pk=committee.gold_version_id))
    current = current_committee(committee.gold_version_id)
    return current is not None and current.pk == committee.pk


def do_apply_committee(committee_id: int, *, now: datetime | None = None) -> int:
    """Every current word score of the committee's gold gains its balanced row; idempotent.

    Answers how many rows were stored (0 when a newer committee has replaced this one).
    """
    now = now or clock.now()
    committee = Committee.objects.defer("data").select_related("gold_version").get(pk=committee_id)
    if committee.status != CommitteeStatus.COMPLETE:
        return 0
    computed = [(s, balanced_figures(s, committee)) for s in word_scores(committee.gold_version)]
    with transaction.atomic():
        if not _still_current(committee):
            return 0
        for score, figures in computed:
            _store(score, figures, committee, now)
        for track_id in committee.corpus.tracks.values_list("pk", flat=True):
            rank_track(track_id, now=now)
    return len(computed)


def do_balance_score(score_id: int, *, now: datetime | None = None) -> Score | None:
    """The balanced row of one word score stored after its gold's committee; idempotent."""
    now = now or clock.now()
    score = (
        Score.objects.filter(pk=score_id, metric="word", superseded_at__isnull=True)
        .select_related("submission", "gold_version")
        .first()
    )
    committee = current_committee(score.gold_version) if score else None
    if score is None or committee is None:
        return None
    figures = balanced_figures(score, committee)
    with transaction.atomic():
        if not _still_current(committee):
            return None
        balanced = _store(score, figures, committee, now)
        rank_track(score.submission.track_id, now=now)
    return balanced


def clear() -> None:
    """Forget prepared committees and training texts (tests)."""
    _prepared.cache_clear()
    forget_training_sentences()
