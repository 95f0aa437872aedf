"""Enqueue committee work after the transaction that asked for it commits."""

from __future__ import annotations

from django.db import transaction

from bakeoff.models import Score

from .models import Committee, CommitteeStatus


def enqueue_build(committee_id: int) -> None:
    from .tasks import build_committee

    transaction.on_commit(lambda: build_committee.delay(committee_id))


def enqueue_apply(committee_id: int) -> None:
    from .tasks import apply_committee

    transaction.on_commit(lambda: apply_committee.delay(committee_id))


def enqueue_balanced(score: Score) -> None:
    """A newly stored word score gains P_b, R_b, F_b when its gold version has a committee."""
    from .tasks import balance_score

    if Committee.objects.filter(
        gold_version_id=score.gold_version_id, status=CommitteeStatus.COMPLETE
    ).exists():
        transaction.on_commit(lambda: balance_score.delay(score.pk))
