"""What the leaderboard does when bakeoff announces a change (connected in
``LeaderboardConfig.ready``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bakeoff.models import Submission

from . import tasks
from .models import ResultsVersion
from .services import rank_track


def rank_the_track(*, submission: Submission, now: datetime, **_: Any) -> None:
    """A score was stored: the track's stored standings follow, in the same transaction."""
    rank_track(submission.track_id, now=now)


def render_the_version(*, version: ResultsVersion, **_: Any) -> None:
    """A results version was published (or an erratum): its pages are rendered for the first
    readers, once it is committed (leaderboard/served.py, ``render_version``)."""
    tasks.render_published.delay_on_commit(version.pk)
