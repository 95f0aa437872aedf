"""What the leaderboard does when bakeoff announces a change (connected in
``LeaderboardConfig.ready``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from bakeoff.models import Submission

from . import tasks
from .models import ResultsVersion
from .services import rank_until_current, rank_when_free


def rank_the_track(*, submission: Submission, now: datetime, **_: Any) -> None:
    """A score was stored: the track's standings follow, in the same transaction, unless another
    process is ranking the track or stored a ranking while this one was computed; then, after
    the commit, the track is ranked until its ranking has read every stored score."""
    if not rank_when_free(submission.track_id, now=now):
        track_id = submission.track_id
        transaction.on_commit(lambda: rank_until_current(track_id), robust=True)


def rank_again(*, submission: Submission, now: datetime, **_: Any) -> None:
    """A run was withdrawn or marked late (no score counts it): as ``rank_the_track``, but after
    the commit the track is ranked until a ranking computed after the commit is stored."""
    if not rank_when_free(submission.track_id, now=now):
        track_id = submission.track_id
        transaction.on_commit(lambda: rank_until_current(track_id, again=True), robust=True)


def render_the_version(*, version: ResultsVersion, **_: Any) -> None:
    """A results version was published (or an erratum): its pages are rendered for the first
    readers, once it is committed (leaderboard/served.py, ``render_version``)."""
    tasks.render_published.delay_on_commit(version.pk)
