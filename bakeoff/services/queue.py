"""Enqueue scoring after the transaction commits (synchronously when no broker is configured)."""

from __future__ import annotations

from django.db import transaction


def enqueue_scoring(submission_id: int) -> None:
    from ..tasks import score_submission

    transaction.on_commit(lambda: score_submission.delay(submission_id))
