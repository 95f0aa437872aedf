"""A track's reference runs, BASE (maximum matching with the training words) and TOP (with the
gold's own words), made from the test text and the gold (docs/measures/maxmatch.md).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

import scoring

from .. import clock
from ..models import Corpus, Submission, SubmissionKind, SubmissionStatus, Track
from ..task_base import enqueue_on_commit
from ..task_names import SCORE_SUBMISSION
from . import uploads
from .gold_index import dictionary_for


def reference_texts(
    test_text: str, gold_text: str, dictionary: scoring.Dictionary
) -> dict[str, str]:
    """BASE: max matching with the training words; TOP: with the gold's own words
    (docs/measures/maxmatch.md)."""
    return {
        SubmissionKind.BASELINE: scoring.baseline_run(test_text, dictionary),
        SubmissionKind.TOPLINE: scoring.topline_run(test_text, gold_text),
    }


def do_add_reference_runs(
    track: Track, *, now: datetime | None = None, texts: dict[str, str] | None = None
) -> list[Submission]:
    """The track's BASE and TOP runs, queued for scoring (once per track)."""
    now = now or clock.now()
    corpus = track.corpus
    gold = corpus.current_gold()
    if gold is None:
        return []
    if texts is None:
        texts = reference_texts(
            uploads.read_stored_text(corpus.test_text),
            uploads.read_stored_text(gold.file),
            dictionary_for(corpus),
        )
    created = []
    with uploads.files_removed_on_failure(), transaction.atomic():
        for kind, text in texts.items():
            if track.submissions.filter(kind=kind).exists():
                continue
            submission = Submission(
                track=track,
                kind=kind,
                run_number=1,
                max_runs=1,
                received_at=now,
                status=SubmissionStatus.QUEUED,
                status_changed_at=now,
                original_name=f"{kind}.txt",
            )
            submission.checksum = uploads.save_utf8(submission.file, text, f"{track.slug}-{kind}")
            submission.size_bytes = submission.file.size
            submission.save()
            enqueue_on_commit(SCORE_SUBMISSION, submission.pk)
            created.append(submission)
    return created


def do_refresh_topline_runs(corpus: Corpus, test_text: str, gold_text: str) -> None:
    """TOP is max matching with the gold's own words: a new gold makes a new TOP run."""
    text = scoring.topline_run(test_text, gold_text)
    toplines = Submission.objects.filter(track__corpus=corpus, kind=SubmissionKind.TOPLINE)
    with uploads.files_removed_on_failure(), transaction.atomic():
        for submission in toplines:
            submission.checksum = uploads.save_utf8(
                submission.file, text, f"{submission.track.slug}-topline"
            )
            submission.size_bytes = submission.file.size
            submission.save(update_fields=["file", "checksum", "size_bytes"])
