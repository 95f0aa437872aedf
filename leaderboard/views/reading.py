"""What every results page reads first: who reads which track, from where (the live standings or
a results version), its rows, and how a run is named on a page.

Each page makes a fixed number of queries whatever the number of runs (tests count them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext_lazy as _

from bakeoff import clock
from bakeoff.access import Preview, bakeoff_track_or_404, preview_for
from bakeoff.models import Bakeoff, SubmissionKind, SubmissionPhase, Track, run_label

from .. import plots, versions
from .. import published as published_reads
from ..models import PostBakeoffStanding, ResultsVersion, TrackRanking, TrackStanding
from ..published import Representation, as_published
from ..rows import Row, papers_of, rows_for, rows_from
from ..visibility import Viewer, viewer_for

PLOT_KIND: dict[str, str] = {
    SubmissionKind.RUN: plots.RUN,
    SubmissionKind.BASELINE: plots.BASE,
    SubmissionKind.TOPLINE: plots.TOP,
}


def _ranking(track: Track) -> TrackRanking | None:
    return TrackRanking.objects.filter(track=track).select_related("gold_version").first()


@dataclass
class Source:
    """Where a page reads the results from: the live standings (before publication, and for
    what the blind phase shows), or a frozen results version (after publication: the newest,
    or the one the URL names)."""

    version: ResultsVersion | None = None
    named: bool = False  # the URL names the version (results/v<n>/)
    # what the apps above froze with the track (versions.Thawed.sections), for their sections
    sections: dict[str, Any] = field(default_factory=dict)

    @property
    def number(self) -> int | None:
        return self.version.number if self.named and self.version else None


def results_source(bakeoff: Bakeoff, viewer: Viewer, now: datetime, number: int | None) -> Source:
    """Where the viewer reads the results from: the version the URL names (404 if none is
    published under that number), the newest version once published, else the live standings."""
    if number is not None:
        version = ResultsVersion.objects.filter(
            bakeoff=bakeoff, number=number, published_at__lte=now
        ).first()
        if version is None:
            raise Http404("No such results version.")
        return Source(version, named=True)
    if viewer.published:
        return Source(versions.newest(bakeoff, now))
    return Source()


@dataclass
class Reading:
    """Who reads which track, and from where: what a published representation is named by
    before anything is thawed (``track_reading``), then the rows (``track_rows``)."""

    bakeoff: Bakeoff
    track: Track
    viewer: Viewer
    source: Source
    # the sites' papers for the track (rows.papers_of), once read for a representation's key
    papers: dict[int, tuple[str, bool]] | None = None
    # an organiser's page seen as the public's or a site's (access.preview_for): rendered for
    # them, never from or into a shared representation
    preview: Preview | None = None


def track_reading(request: HttpRequest, slug: str, track_slug: str, number: int | None) -> Reading:
    track = bakeoff_track_or_404(slug, track_slug, request.user)
    bakeoff = track.corpus.bakeoff
    now = clock.now()
    preview = preview_for(request, bakeoff)
    viewer = viewer_for(request.user, bakeoff, now, preview=preview)
    return Reading(
        bakeoff, track, viewer, results_source(bakeoff, viewer, now, number), preview=preview
    )


def published_representation(
    request: HttpRequest,
    reading: Reading,
    kind: str,
    language: str | None = None,
    *,
    beside: object = None,
) -> Representation | None:
    """The published representation of this track's ``kind`` (page, export, plot, a run's page)
    that the reader is shown (``published.representation``), or None: rendered for them.
    ``beside``: what else the page shows that is read now (it is part of the key)."""
    if (
        published_reads.viewer_class(reading.viewer) is None
        or reading.source.version is None
        or reading.preview is not None
    ):
        return None
    reading.papers = papers_of(reading.track)
    live = published_reads.live_parts(
        reading.bakeoff, reading.track, named=reading.source.named, papers=reading.papers
    )
    if beside is not None:
        live.append(beside)
    return published_reads.representation(
        reading.source.version,
        reading.viewer,
        kind=kind,
        path=request.get_full_path(),
        live=live,
        language=language,
    )


def track_rows(
    request: HttpRequest,
    slug: str,
    track_slug: str,
    *,
    with_result: bool = False,
    with_ranking: bool = True,
    number: int | None = None,
    reading: Reading | None = None,
) -> tuple[Bakeoff, Track, Viewer, list[Row], TrackRanking | None, Source]:
    """The track's rows as the viewer is shown them: thawed from the results version read, or
    the live standings the blind phase lets them see; with the ranking shown beside them."""
    reading = reading or track_reading(request, slug, track_slug, number)
    bakeoff, track, source = reading.bakeoff, reading.track, reading.source
    viewer = as_published(reading.viewer, source.version)
    if source.version is not None:
        thawed = versions.thawed_track(source.version, track)
        source.sections = thawed.sections
        rows = rows_from(
            bakeoff,
            track,
            viewer,
            thawed.standings,
            version=source.number,
            papers=reading.papers,
        )
        return bakeoff, track, viewer, rows, thawed.ranking, source
    if not viewer.sees_track(track.pk):
        return bakeoff, track, viewer, [], None, source
    rows = rows_for(bakeoff, track, viewer, with_result=with_result)
    ranking = shown_ranking(track, viewer) if with_ranking else None
    return bakeoff, track, viewer, rows, ranking, source


def shown_ranking(track: Track, viewer: Viewer) -> TrackRanking | None:
    """The track's live ranking as far as the viewer may see it (the blind phase's)."""
    return viewer.ranking(track.pk, _ranking(track) if viewer.sees_track(track.pk) else None)


def confidence_plot(track: Track, rows: list[Row]) -> str:
    """The track's F plot with each row's 95% confidence interval, as SVG."""
    points = [
        plots.Point(row.label, row.score.f, PLOT_KIND[row.standing.kind], row.cf) for row in rows
    ]
    title = _("%(track)s: F with its 95%% confidence interval") % {"track": track.name}
    return plots.confidence_bars(points, title=str(title))


def change_labeller(viewer: Viewer) -> Callable[[dict[str, Any]], str]:
    """How a page names a run of an erratum's changes: as the version shows the sites."""

    def label(run: dict[str, Any]) -> str:
        if run["kind"] != SubmissionKind.RUN:
            return str(run["label"])
        if not (viewer.anonymised and not viewer.organiser):
            # stored in English ("S01 run 2"): said again in the reader's language
            stored = re.fullmatch(r"(.+) run (\d+)", str(run["label"]))
            return run_label(stored[1], int(stored[2])) if stored else str(run["label"])
        return run_label(viewer.aliases.get(str(run["site"]), "P?"), run["run_number"])

    return label


def standing_label(viewer: Viewer, standing: TrackStanding | PostBakeoffStanding) -> str:
    """How a page names a standing's run for this viewer (an alias in the blind phase)."""
    if isinstance(standing, PostBakeoffStanding):
        site = standing.site
        return run_label(site.code or site.name, standing.run_number, SubmissionPhase.POST_BAKEOFF)
    if standing.site is None:
        return "BASE" if standing.kind == SubmissionKind.BASELINE else "TOP"
    return run_label(viewer.site_code(standing.site), standing.run_number)
