"""Enqueue a track's analysis after the transaction that stored a score commits."""

from __future__ import annotations

from django.db import transaction


def enqueue_analysis(track_id: int) -> None:
    from .tasks import analyse_track

    transaction.on_commit(lambda: analyse_track.delay(track_id))
