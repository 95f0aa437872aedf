"""The results tables: a track's (with its post-bakeoff runs), a track's by domain, and the
bakeoff's summary with its plots. They read stored standings; nothing is ranked here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig

from bakeoff import clock
from bakeoff.access import Preview, bakeoff_or_404, preview_for
from bakeoff.models import Bakeoff, Track
from bakeoff.previews import honours_preview

from .. import domains, plots, served, services, versions
from .. import published as published_reads
from ..models import ResultsVersion, TrackRanking, TrackStanding
from ..post_bakeoff import post_bakeoff_rows
from ..published import as_published
from ..rows import pairs_note
from ..tables import standing_table
from ..visibility import Viewer, viewer_for
from .reading import (
    PLOT_KIND,
    Reading,
    Source,
    change_labeller,
    confidence_plot,
    published_representation,
    standing_label,
    track_reading,
    track_rows,
)


def _links(bakeoff: Bakeoff, track: Track, source: Source) -> dict[str, str]:
    if source.number is None:
        args: tuple[object, ...] = (bakeoff.slug, track.slug)
        names = {
            "csv": "csv",
            "excel": "excel-csv",
            "json": "json",
            "tex": "tex",
            "plot": "track-plot",
        }
    else:
        args = (bakeoff.slug, source.number, track.slug)
        names = {
            k: f"version-{name}"
            for k, name in (
                ("csv", "csv"),
                ("excel", "excel-csv"),
                ("json", "json"),
                ("tex", "tex"),
                ("plot", "plot"),
            )
        }
    return {key: reverse(f"leaderboard:{name}", args=args) for key, name in names.items()}


@honours_preview
def track_results(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = track_reading(request, slug, track, number)
    represented = published_representation(request, reading, "track")
    # a signed-in reader: their own header in the page of their viewer class (served.serve_page)
    return served.serve_page(
        request,
        represented,
        lambda slot: render(
            request,
            "leaderboard/track.html",
            {**_track_context(request, reading), "header_slot": slot},
        ),
    )


def _track_context(request: HttpRequest, reading: Reading) -> dict[str, Any]:
    bakeoff, the_track, viewer, rows, ranking, source = track_rows(
        request, reading.bakeoff.slug, reading.track.slug, reading=reading
    )
    table = standing_table(rows, names=viewer.sees_names or viewer.participant)
    RequestConfig(request, paginate=False).configure(table)
    return {
        "bakeoff": bakeoff,
        "track": the_track,
        "viewer": viewer,
        "preview": reading.preview,
        "shown": viewer.sees_track(the_track.pk),
        "table": table,
        "rows": rows,
        "ranking": ranking,
        "version": source.version,
        "named_version": source.named,
        "frozen_sections": source.sections if source.version else None,
        "links": _links(bakeoff, the_track, source),
        # live under the official (perhaps frozen) table; never part of a results version
        "post_rows": (
            post_bakeoff_rows(bakeoff, the_track, viewer, rows) if not source.named else []
        ),
        "note": pairs_note(ranking, rows),
        "plot": mark_safe(confidence_plot(the_track, rows)) if rows else "",
    }


@honours_preview
def track_domains(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    """The track's table by domain: one figure (F unless ``?figure=``) per domain, one column
    each; the same rows as the track's table for the same viewer."""
    bakeoff, the_track, viewer, rows, _number, _version = track_rows(
        request, slug, track, with_result=True, with_ranking=False
    )
    corpus = the_track.corpus
    if not corpus.domains and not domains.shown_domains(rows, corpus)[0]:
        raise Http404("The test lines of this corpus have no domain labels.")
    figure = request.GET.get("figure", "f")
    if figure not in domains.FIGURES:
        figure = "f"
    table = domains.domain_table(
        rows, corpus, names=viewer.sees_names or viewer.participant, figure=figure
    )
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "leaderboard/track_domains.html",
        {
            "bakeoff": bakeoff,
            "track": the_track,
            "viewer": viewer,
            "preview": preview_for(request, bakeoff),
            "table": table,
            "rows": rows,
            "shown": viewer.sees_track(the_track.pk),
            "figure": figure,
            "figures": [(key, label) for key, (_key, label) in domains.FIGURES.items()],
            "pending": sum(1 for row in rows if "domains" not in row.score.result),
            "shown_domains": domains.shown_domains(rows, corpus)[0],
        },
    )


def tracks_with_rankings(bakeoff: Bakeoff) -> list[Track]:
    """The bakeoff's tracks in the order of its pages, each with its corpus and live ranking."""
    return list(
        Track.objects.filter(corpus__bakeoff=bakeoff)
        .select_related("corpus", "ranking")
        .order_by("corpus__abbreviation", "condition")
    )


def bakeoff_series(
    bakeoff: Bakeoff, viewer: Viewer, source: Source, tracks: list[Track] | None = None
) -> tuple[list[Track], dict[int, list[TrackStanding]], dict[int, TrackRanking | None]]:
    """Every track's standings and ranking as the viewer is shown them, for the summary and
    its plots: from the results version read, or the live standings."""
    tracks = tracks_with_rankings(bakeoff) if tracks is None else tracks
    by_track: dict[int, list[TrackStanding]] = {t.pk: [] for t in tracks}
    if source.version is not None:
        thawed = versions.thawed_tracks(source.version, tracks)
        for pk, frozen in thawed.items():
            by_track[pk] = frozen.standings
        return tracks, by_track, {pk: frozen.ranking for pk, frozen in thawed.items()}
    if viewer.sees_rows:
        standings = viewer.filter(TrackStanding.objects.filter(track__corpus__bakeoff=bakeoff))
        for s in standings.select_related("score", "site").defer("score__result"):
            by_track[s.track_id].append(s)
    return (
        tracks,
        by_track,
        {t.pk: viewer.ranking(t.pk, getattr(t, "ranking", None)) for t in tracks},
    )


def systems_plot(
    tracks: list[Track], by_track: dict[int, list[TrackStanding]], viewer: Viewer, metric: str
) -> str:
    series = [
        plots.Series(
            t.name,
            [
                plots.Point(standing_label(viewer, s), getattr(s.score, metric), PLOT_KIND[s.kind])
                for s in by_track[t.pk]
            ],
        )
        for t in tracks
    ]
    if metric == "f":
        return plots.systems_by_track(series, title=str(_("F score of every system")), axis="F")
    return plots.systems_by_track(
        series, title=str(_("OOV recall of every system")), axis=str(_("OOV recall"))
    )


@honours_preview
def bakeoff_results(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponseBase:
    bakeoff = bakeoff_or_404(slug, request.user)
    now = clock.now()
    preview = preview_for(request, bakeoff)
    viewer = viewer_for(request.user, bakeoff, now, preview=preview)
    published: list[ResultsVersion] = []
    if viewer.published or number is not None:
        published = list(
            ResultsVersion.objects.filter(bakeoff=bakeoff, published_at__lte=now).order_by(
                "-number"
            )
        )
    if number is not None:
        named = next((v for v in published if v.number == number), None)
        if named is None:
            raise Http404("No such results version.")
        source = Source(named, named=True)
    else:
        source = Source(published[0] if published else None)
    represented = None
    tracks = tracks_with_rankings(bakeoff)
    if source.version is not None and viewer.published and preview is None:
        # the list of versions is on the page: a later erratum is a new representation
        parts = published_reads.live_parts(bakeoff, None, named=True, tracks=tracks)
        live = [parts, [v.pk for v in published]]
        represented = published_reads.representation(
            source.version, viewer, kind="bakeoff", path=request.get_full_path(), live=live
        )
    return served.serve_page(
        request,
        represented,
        lambda slot: _bakeoff_page(
            request, bakeoff, viewer, source, published, now, tracks, slot, preview
        ),
    )


def _bakeoff_page(
    request: HttpRequest,
    bakeoff: Bakeoff,
    viewer: Viewer,
    source: Source,
    published: list[ResultsVersion],
    now: datetime,
    tracks: list[Track],
    header_slot: str,
    preview: Preview | None = None,
) -> HttpResponse:
    viewer = as_published(viewer, source.version)
    tracks, by_track, rankings = bakeoff_series(bakeoff, viewer, source, tracks)
    figures = {}
    if viewer.sees_rows:
        figures = {
            "f": mark_safe(systems_plot(tracks, by_track, viewer, "f")),
            "oov": mark_safe(systems_plot(tracks, by_track, viewer, "oov_recall")),
        }
    summary = [(t, rankings[t.pk]) for t in tracks]
    pending_runs = None
    if viewer.organiser and source.version is not None and not source.named:
        # what the next erratum would publish: the organisers' only (never a reader's figure)
        pending_runs = sum(len(c["runs"]) for c in services.pending_changes(bakeoff, now=now)[1])
    return render(
        request,
        "leaderboard/bakeoff.html",
        {
            "bakeoff": bakeoff,
            "viewer": viewer,
            "preview": preview,
            "summary": summary,
            "figures": figures,
            "now": now,
            "version": source.version,
            "named_version": source.named,
            "versions": published,
            "pending_runs": pending_runs,
            "header_slot": header_slot,
            "changes": versions.described(source.version.changes, change_labeller(viewer))
            if source.version is not None
            else [],
        },
    )
