"""Committees of a corpus: ``check_*`` decide, ``do_*`` change data (docs/measures/balanced-f.md).

- ``do_start_committee``: the organiser asks for a committee of a corpus's current gold; a new
  version is queued (one build at a time per corpus, a database constraint).
- ``do_build_committee`` (a task): trains the CRF members in this process (Celery's prefork
  workers cannot start child processes), or scores the corpus's runs as members, storing the
  progress (members done / K) as it goes; the result becomes the current committee of that gold
  version and its balanced scores are queued (``balanced.do_apply_committee``).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q

import scoring
from bakeoff import clock
from bakeoff.access import User
from bakeoff.errors import Refused
from bakeoff.models import Corpus, GoldVersion, Score, SubmissionKind
from bakeoff.services import gold_index_for, uploads
from scoring import score_run_details, split_lines, words_of
from scoring.psychometric import committee as library

from .. import signals, tasks
from ..models import ACTIVE, Committee, CommitteeKind, CommitteeStatus

MAX_K = 64
MAX_ATTEMPTS = 3
# A running build that has not finished a member for this long is taken to be dead (its worker
# was lost); a build that is alive is never taken again, even when the broker redelivers it.
STALE_AFTER = timedelta(minutes=30)
HARDEST = 50  # gold word types listed as the hardest (the paper's Figure 7)


def current_committee(gold: GoldVersion | int) -> Committee | None:
    """The newest complete committee of a gold version (without its difficulty data)."""
    return (
        Committee.objects.filter(gold_version=gold, status=CommitteeStatus.COMPLETE)
        .defer("data")
        .order_by("-number")
        .first()
    )


def word_scores(gold: GoldVersion) -> Any:
    return Score.objects.filter(
        submission__track__corpus_id=gold.corpus_id,
        gold_version=gold,
        metric="word",
        superseded_at__isnull=True,
    ).select_related("submission__site", "submission__track", "gold_version")


def _member_scores(gold: GoldVersion) -> Any:
    # TOP segments with the gold's own words: a member that never misses says nothing.
    return word_scores(gold).exclude(submission__kind=SubmissionKind.TOPLINE).order_by("pk")


def check_committee(corpus: Corpus, kind: str, k: int) -> GoldVersion:
    """The gold version a new committee of ``corpus`` would rate, or Refused saying why not."""
    gold = corpus.current_gold()
    if gold is None:
        raise Refused("The corpus has no gold standard yet.")
    if gold.needs_review:
        raise Refused(
            f"Gold version {gold.number} differs from the test text on some lines: accept them "
            "or upload a corrected gold first."
        )
    if kind not in CommitteeKind.values:
        raise Refused(f"Unknown committee kind {kind!r}.")
    if not 1 <= k <= MAX_K:
        raise Refused(f"A committee has 1 to {MAX_K} members.")
    if kind == CommitteeKind.CRF and not corpus.training_text.name:
        raise Refused(
            "This corpus has no segmented training text (only a word list): build the "
            "committee from its scored runs instead."
        )
    if kind == CommitteeKind.RUNS and not _member_scores(gold).exists():
        raise Refused(f"No run of this corpus is scored against gold version {gold.number} yet.")
    if Committee.objects.filter(corpus=corpus, status__in=ACTIVE).exists():
        raise Refused("A committee of this corpus is being built; wait until it finishes.")
    return gold


def do_start_committee(
    corpus: Corpus,
    *,
    kind: str,
    k: int = library.DEFAULT_K,
    seed: int = 1,
    max_iterations: int | None = None,
    by: User | None = None,
    now: datetime | None = None,
) -> Committee:
    """Queue a new committee version for the corpus's current gold; the build runs as a task."""
    now = now or clock.now()
    gold = check_committee(corpus, kind, k)
    for _ in range(10):
        taken = Committee.objects.filter(gold_version=gold).aggregate(n=Max("number"))["n"]
        try:
            with transaction.atomic():
                committee = Committee.objects.create(
                    corpus=corpus,
                    gold_version=gold,
                    number=(taken or 0) + 1,
                    kind=kind,
                    k=k,
                    seed=seed,
                    max_iterations=max_iterations,
                    requested_at=now,
                    requested_by=by if isinstance(by, AbstractBaseUser) else None,
                )
                tasks.build_committee.delay_on_commit(committee.pk)
            return committee
        except IntegrityError:
            # Another request took the number, or started a build of this corpus first.
            if Committee.objects.filter(corpus=corpus, status__in=ACTIVE).exists():
                break
    raise Refused("A committee of this corpus is being built; wait until it finishes.")


def do_mark_committee_failed(committee_id: int, reason: str, *, now: datetime) -> bool:
    with transaction.atomic():
        failed = Committee.objects.filter(pk=committee_id, status__in=ACTIVE).update(
            status=CommitteeStatus.FAILED, reason=reason, finished_at=now
        )
        if failed:
            _announce(committee_id, now=now)
    return bool(failed)


def _claimable(now: datetime) -> Q:
    return Q(status=CommitteeStatus.QUEUED) | Q(
        status=CommitteeStatus.RUNNING, progress_at__lt=now - STALE_AFTER
    )


def _fail_if_exhausted(committee_id: int, *, now: datetime) -> None:
    with transaction.atomic():
        failed = Committee.objects.filter(
            _claimable(now), pk=committee_id, attempts__gte=MAX_ATTEMPTS
        ).update(
            status=CommitteeStatus.FAILED,
            reason=f"The build was started {MAX_ATTEMPTS} times without finishing.",
            finished_at=now,
        )
        if failed:
            _announce(committee_id, now=now)


def _announce(committee_id: int, *, now: datetime) -> None:
    committee = Committee.objects.select_related("corpus__bakeoff", "gold_version").get(
        pk=committee_id
    )
    signals.committee_finished.send(sender=Committee, committee=committee, now=now)


def _claim(committee_id: int, *, now: datetime) -> bool:
    """queued → running; a build left running by a dead worker is taken again, a few times."""
    return bool(
        Committee.objects.filter(
            _claimable(now), pk=committee_id, attempts__lt=MAX_ATTEMPTS
        ).update(
            status=CommitteeStatus.RUNNING,
            attempts=F("attempts") + 1,
            members_done=0,
            progress_at=now,
        )
    )


def do_build_committee(committee_id: int, *, now: datetime | None = None) -> Committee | None:
    """Build a queued committee; idempotent. Answers it once complete, else None."""
    now = now or clock.now()
    if not _claim(committee_id, now=now):
        _fail_if_exhausted(committee_id, now=now)
        return None
    committee = Committee.objects.select_related("corpus", "gold_version").get(pk=committee_id)
    gold = committee.gold_version

    def progress(done: int, total: int) -> None:
        Committee.objects.filter(pk=committee_id, status=CommitteeStatus.RUNNING).update(
            members_done=done, k=total, progress_at=clock.now()
        )

    try:
        if committee.kind == CommitteeKind.CRF:
            text = uploads.read_stored_text(committee.corpus.training_text)
            result = library.build_committee(
                library.training_sentences(text),
                gold_index_for(gold),
                k=committee.k,
                seed=committee.seed,
                max_iterations=committee.max_iterations,
                max_workers=1,  # a Celery worker process may not start children
                progress=progress,
            )
        else:
            result = library.committee_from_runs(_scored_members(gold, progress))
    except scoring.ScoringError as error:
        do_mark_committee_failed(
            committee_id, f"The committee could not be built: {error}", now=now
        )
        return None
    with transaction.atomic():
        done = Committee.objects.filter(pk=committee_id, status=CommitteeStatus.RUNNING).update(
            status=CommitteeStatus.COMPLETE,
            k=result.k,
            members_done=result.k,
            data=result.to_dict(),
            signature=result.signature[:300],
            hardest=hardest_words(gold_words(gold), result.difficulty),
            finished_at=clock.now(),
            reason="",
        )
        if done:
            tasks.apply_committee.delay_on_commit(committee_id)
            _announce(committee_id, now=now)
    return Committee.objects.get(pk=committee_id) if done else None


def _scored_members(gold: GoldVersion, progress: library.Progress) -> dict[str, Any]:
    scores = list(_member_scores(gold))
    index = gold_index_for(gold)
    members = {}
    for done, score in enumerate(scores, 1):
        submission = score.submission
        members[f"{submission.track.slug} {submission.label}"] = score_run_details(
            uploads.read_stored(submission.file), index, aligned_lines=gold.aligned_lines
        )
        progress(done, len(scores))
    return members


def gold_words(gold: GoldVersion) -> list[str]:
    """The gold words in corpus order (line by line, empty lines skipped), as the library's."""
    text = uploads.read_stored_text(gold.file)
    return [word for line in split_lines(text) for word in words_of(line)]


def hardest_words(
    words: list[str], difficulty: npt.NDArray[np.float64], limit: int = HARDEST
) -> list[dict[str, Any]]:
    """The hardest gold word types: mean difficulty of their occurrences, then frequency."""
    if len(words) != difficulty.size:
        raise scoring.ScoringError(f"{difficulty.size} difficulties for {len(words)} gold words")
    positions = word_positions(words)
    rated = sorted(
        ((float(difficulty[p].mean()), len(p), word) for word, p in positions.items()),
        key=lambda r: (-r[0], -r[1], r[2]),
    )
    return [
        {"word": word, "count": count, "difficulty": round(d, 4)}
        for d, count, word in rated[:limit]
        if d > 0
    ]


def word_positions(words: list[str]) -> dict[str, npt.NDArray[np.int64]]:
    found: dict[str, list[int]] = defaultdict(list)
    for i, word in enumerate(words):
        found[word].append(i)
    return {word: np.array(p, np.int64) for word, p in found.items()}
