"""After publication every public read shows the newest results version the reader may see.

``read`` and ``versions_showing`` are what bakeoff's own pages and API ask (``bakeoff.published``,
registered in ``LeaderboardConfig.ready``); ``as_published`` and ``rows_as_published`` are what
the pages of the apps above read a track's rows with, as its page does.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db.models import Subquery

from bakeoff.models import Bakeoff, Submission, Track
from bakeoff.published import Published

from . import versions
from .models import FrozenTrack, ResultsVersion
from .rows import Row, rows_for, rows_from
from .visibility import Viewer


def read(bakeoff: Bakeoff, track: Track | None, now: datetime) -> Published | None:
    """The newest version public at ``now``, with the rows it froze of ``track`` (or of every
    track): one query, two when the version froze none of them."""
    public = ResultsVersion.objects.filter(bakeoff=bakeoff, published_at__lte=now)
    newest = public.order_by("-number").values("pk")[:1]
    frozen = FrozenTrack.objects.filter(version=Subquery(newest)).select_related(
        "version", "track__corpus"
    )
    if track is not None:
        frozen = frozen.filter(track=track)
    found = list(frozen)
    if not found:
        version = public.order_by("-number").first()
        return None if version is None else Published(version.number, anonymised=version.anonymised)
    scores = {
        standing.submission_id: standing.score
        for f in found
        for standing in versions.thaw(f.version, f.track, f.data).standings
    }
    shown = found[0].version
    return Published(shown.number, scores, anonymised=shown.anonymised)


def versions_showing(submission: Submission, now: datetime) -> dict[int, list[int]]:
    """For each score of ``submission`` in the table of a results version public at ``now``, the
    numbers of those versions, oldest first (``bakeoff.published.versions_showing``)."""
    frozen = (
        FrozenTrack.objects.filter(track_id=submission.track_id, version__published_at__lte=now)
        .order_by("version__number")
        .values_list("version__number", "data")
    )
    shown: dict[int, list[int]] = {}
    for number, data in frozen:
        for row in data.get("rows", []):
            if row["submission"] == submission.pk:
                shown.setdefault(row["score"]["pk"], []).append(number)
    return shown


def as_published(viewer: Viewer, version: ResultsVersion | None) -> Viewer:
    """Names or codes as the version was published."""
    if version is None:
        return viewer
    return replace(viewer, anonymised=version.anonymised, aliases=dict(version.aliases))


def rows_as_published(
    bakeoff: Bakeoff, track: Track, viewer: Viewer, now: datetime
) -> tuple[Viewer, list[Row], dict[str, Any] | None, int | None]:
    """The rows of the track's page for this viewer: after publication the newest version's
    (with the names or codes it was published with, the sections the apps above froze with it,
    and its number), before it the live rows they may see (and None, None: read the live
    sections)."""
    if viewer.published:
        thawed = versions.newest_thawed_track(bakeoff, track, now)
        if thawed is not None:
            viewer = as_published(viewer, thawed.version)
            rows = rows_from(bakeoff, track, viewer, thawed.standings)
            return viewer, rows, thawed.sections, thawed.version.number
    if not viewer.sees_track(track.pk):
        return viewer, [], None, None
    return viewer, rows_for(bakeoff, track, viewer), None, None


def pending(track: Track, version: ResultsVersion) -> dict[str, Any] | None:
    """For the organisers: what moved on ``track`` since ``version`` (the newest public one), as
    an erratum published now would list it (``versions.changes_between``), or None. Readers
    never see it: it is public once an erratum freezes it."""
    frozen = (
        FrozenTrack.objects.filter(version=version, track=track)
        .values_list("data", flat=True)
        .first()
    )
    return versions.changes_between(frozen, versions.freeze_track(track))


def pending_for_run(change: dict[str, Any] | None, submission_id: int) -> dict[str, Any] | None:
    """``change`` (``pending``) restricted to one run: None when that run's figures and rank are
    as published."""
    if change is None:
        return None
    runs = [run for run in change["runs"] if run["submission"] == submission_id]
    return {**change, "runs": runs} if runs else None
