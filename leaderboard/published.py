"""After publication every public read shows the newest results version the reader may see.

``read`` and ``versions_showing`` are what bakeoff's own pages and API ask (``bakeoff.published``,
registered in ``LeaderboardConfig.ready``); ``as_published`` and ``rows_as_published`` are what
the pages of the apps above read a track's rows with, as its page does; ``pending`` and
``pending_for_run`` are what moved since, which only the organisers see, as the next erratum.

The apps above keep what their sections show with the version (``signals.results_freezing``:
``sections["analysis"]``, ``sections["psychometric"]``) and read it back from the thawed track's
``sections``, with defaults: a version frozen before a section existed says so on the page, it
never shows the live figures instead.

Every read of an official run's figures, and where it comes from after publication (the newest
version public at the instant of the request, the organisers' included; docs/track-table.md):

- leaderboard/views/tables.py: ``track_results`` (table, ranks, intervals, significance, F plot,
  with analysis's sections ``track_bootstrap`` and ``track_profile`` on ``frozen_sections``),
  ``track_domains``; leaderboard/views/exports.py: ``results_csv``, ``results_json`` and
  ``results_tex`` (through ``export_rows``; leaderboard/exports.py and leaderboard/domains.py
  format those rows), ``track_plot``: ``track_rows`` (leaderboard/views/reading.py) →
  ``versions.newest_thawed_track`` / ``thawed_track``.
- leaderboard/views/tables.py: ``bakeoff_results``; leaderboard/views/exports.py:
  ``bakeoff_plot`` (summary, plots): ``bakeoff_series`` → ``versions.thawed_tracks``;
  organisers also get ``pending_runs``.
- leaderboard/views/runs.py: ``run_results`` (figures, rank, neighbours, psychometric's
  ``run_section`` on ``frozen_sections``; ``pending`` for the organisers) and ``run_comparison``
  (the gold version the frozen score names): ``_visible_standing`` → ``versions.thawed_track``.
- leaderboard/views/runs.py: ``_post_bakeoff_run``: the official runs a post-bakeoff run is tied
  with, their rank and F as published (the post-bakeoff run itself is live: docs/phases.md).
- leaderboard/post_bakeoff.py: ``post_bakeoff_rows``: live by design; the official labels it
  names come from the frozen rows it is given.
- psychometric/templatetags/psychometric.py: ``balanced_section`` → ``psychometric.frozen``
  (``thawed_balanced``); ``committee_panel`` is the organisers' live working view.
- analysis/views.py: ``run_analysis`` → ``rows_as_published``, ``pages.thawed_run_analyses`` and
  ``pages.thawed_analysis``; analysis/templatetags ``criterion`` (Ψ) is live by design.
- bakeoff/views/participant.py: ``submissions``, ``submission_detail`` (``_shown_score``,
  ``published.history``; the organisers' "Live figures, not published" apart) and
  ``paper_file`` (names or codes): ``bakeoff.published.read`` → ``read``.
- bakeoff/api/views.py: ``represent`` via ``_published`` → ``bakeoff.published.read`` (the
  organisers' ``live_scores`` from ``_live_score``, named as such).
- notifications/receivers.py: ``run_scored`` mails no re-score of a published official run;
  ``erratum_published`` mails what the new version's ``changes`` froze; ``committee_finished``
  tells the organisers the new balanced scores are pending for an erratum.
- leaderboard/views/publication.py ``erratum`` and ``services.pending_changes``: the organisers'
  live diff.

A published version never changes, so what a reader is shown of it is one **representation**
per (version, language, time zone, viewer class, page or export, URL, what the page shows live
beside it): ``representation`` names it, with the key its bytes are kept under in the cache
and the ETag a returning reader sends back (``leaderboard/served.py`` serves it; docs/deployment.md,
"Published pages"). ``viewer_class`` says who may be shown the same bytes; the organisers, and
every reader before publication, are never given a representation: their pages are rendered
for them. An erratum is a new version, hence new keys: nothing has to be forgotten.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Model, Subquery
from django.utils import timezone, translation

from bakeoff.models import Bakeoff, Submission, Track
from bakeoff.published import Published

from . import versions
from .models import FrozenTrack, PostBakeoffStanding, ResultsVersion
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


# -- representations of a published version -----------------------------------------------------

#: Raised when what a representation's key or its cached entry means changes: the old keys are
#: then never asked again (the cache forgets them in time).
REPRESENTATION_FORMAT = 1

# What the bytes of a page are made from besides the database: the code, its templates and
# catalogues. A release that changes them makes new keys (``release``).
_RELEASE_PARTS = ("templates", "locale", "bakeoff", "leaderboard", "analysis", "psychometric")
_RELEASE_SUFFIXES = (".py", ".html", ".txt", ".mo")


@functools.cache
def release() -> str:
    """A digest of the files a page is rendered with (name, size, time): the same in every web
    process of one release, another after a deployment that changed any of them."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for part in _RELEASE_PARTS:
        for folder, _dirs, files in sorted(os.walk(base / part)):
            for name in sorted(files):
                if name.endswith(_RELEASE_SUFFIXES):
                    stat = os.stat(os.path.join(folder, name))
                    digest.update(f"{folder}/{name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()[:16]


def viewer_class(viewer: Viewer) -> str | None:
    """Who is shown the same bytes of a published version: every reader who organises nothing
    and is a member of no site ("public": anonymous or signed in); the members of the same sites
    ("sites-3": their own rows marked, their own name where the version shows codes). None: the
    organisers (their pages show what is pending, live) and every reader before publication."""
    if not viewer.published or viewer.organiser:
        return None
    if viewer.site_ids:
        return "sites-" + "-".join(str(pk) for pk in sorted(viewer.site_ids))
    return "public"


@dataclass(frozen=True)
class Representation:
    """One published representation: ``key`` of its bytes in the cache, ``etag`` (quoted, as
    the header carries it), and whether it is the public one (the proxy may keep it)."""

    key: str
    etag: str
    public: bool


def representation(
    version: ResultsVersion | None,
    viewer: Viewer,
    *,
    kind: str,
    path: str,
    live: object = None,
    language: str | None = None,
) -> Representation | None:
    """The representation of ``version`` that ``viewer`` is shown at ``path`` (with its query),
    in the active language and time zone (``language``: the export's own, whatever the reader's),
    or None: no version, or a viewer rendered for (``viewer_class``). ``live``: what the page
    shows beside the frozen version, read now (``live_parts``), so that a change of it is a new
    key too."""
    shown = viewer_class(viewer)
    if version is None or shown is None:
        return None
    named = [
        REPRESENTATION_FORMAT,
        release(),
        version.pk,
        version.number,
        language or translation.get_language(),
        timezone.get_current_timezone_name(),
        shown,
        kind,
        path,
        live,
    ]
    digest = hashlib.sha256(json.dumps(named, default=str).encode()).hexdigest()[:32]
    key = f"published:{version.bakeoff_id}:v{version.number}:{shown}:{digest}"
    return Representation(key, f'"{digest}"', public=shown == "public")


def _fields(instance: Model) -> list[Any]:
    return [getattr(instance, f.attname) for f in instance._meta.concrete_fields]


def live_parts(
    bakeoff: Bakeoff,
    track: Track | None,
    *,
    named: bool,
    papers: dict[int, tuple[str, bool]] | None = None,
    tracks: list[Track] | None = None,
) -> list[Any]:
    """What the published pages of ``track`` (of the whole bakeoff: None) show beside the frozen
    version, read now: the bakeoff's, corpus's and track's own fields (names, dates), the sites'
    ``papers`` (``rows.papers_of``, read by the caller, who gives them to the rows too), and
    under the newest version the live post-bakeoff table (docs/phases.md). One query at most;
    the representation's key digests them."""
    parts: list[Any] = [_fields(bakeoff)]
    if track is None:  # every track (``tracks``, when the caller has read them with corpora)
        if tracks is None:
            tracks = list(Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus"))
        parts += [[_fields(t), _fields(t.corpus)] for t in sorted(tracks, key=lambda t: t.pk)]
        return parts
    parts += [_fields(track), _fields(track.corpus)]
    parts.append(sorted((papers or {}).items()))
    if not named and track.post_bakeoff_open:
        post = PostBakeoffStanding.objects.filter(track=track).order_by("position")
        attnames = [f.attname for f in PostBakeoffStanding._meta.concrete_fields]
        parts.append(
            list(
                post.values_list(*attnames, "site__name", "site__number", "submission__description")
            )
        )
    return parts
