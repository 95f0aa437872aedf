"""A track's table as files (CSV, Excel's CSV, JSON, LaTeX), its F plot, and the bakeoff's plots:
the same rows as the pages, for the same viewer.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation

from bakeoff import clock
from bakeoff.access import bakeoff_or_404, preview_for
from bakeoff.models import Track
from bakeoff.previews import honours_preview

from .. import domains, exports, served
from .. import published as published_reads
from ..models import ResultsVersion, TrackRanking
from ..post_bakeoff import PostRow, post_bakeoff_rows
from ..published import as_published
from ..rows import Row
from ..visibility import viewer_for
from .reading import (
    Reading,
    confidence_plot,
    published_representation,
    results_source,
    track_reading,
    track_rows,
)
from .tables import bakeoff_series, systems_plot, tracks_with_rankings


def export_rows(
    request: HttpRequest, reading: Reading
) -> tuple[Track, list[Row], TrackRanking | None, ResultsVersion | None, list[PostRow]]:
    bakeoff, the_track, viewer, rows, ranking, source = track_rows(
        request, reading.bakeoff.slug, reading.track.slug, with_result=True, reading=reading
    )
    if not viewer.sees_track(the_track.pk):
        raise Http404("The results of this track are not published yet.")
    the_track.corpus.bakeoff = bakeoff  # for the exports' headers, without a query
    post_rows = (
        []
        if source.named
        else post_bakeoff_rows(bakeoff, the_track, viewer, rows, with_result=True)
    )
    return the_track, rows, ranking, source.version, post_rows


def _attachment(
    response: HttpResponse, track: Track, extension: str, number: int | None
) -> HttpResponse:
    version = "" if number is None else f"-v{number}"
    name = f"{track.corpus.bakeoff.slug}-{track.slug}-results{version}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@honours_preview
def results_csv(
    request: HttpRequest,
    slug: str,
    track: str,
    number: int | None = None,
    *,
    excel: bool = False,
) -> HttpResponseBase:
    """The table as CSV; ``excel``: the same, opened by a double click in Excel on a Chinese
    Windows (which reads a CSV without a byte-order mark as GBK): UTF-8 with its BOM, CRLF."""
    reading = track_reading(request, slug, track, number)

    def render() -> HttpResponse:
        the_track, rows, ranking, _version, post_rows = export_rows(request, reading)
        shown = [str(d["domain"]) for d in domains.shown_domains(rows, the_track.corpus)[0]]
        body = exports.to_csv(rows, ranking, shown, post_rows)
        if excel:
            body = exports.for_excel(body)
        response = HttpResponse(body.encode("utf-8"), content_type="text/csv; charset=utf-8")
        return _attachment(response, the_track, "excel.csv" if excel else "csv", number)

    kind = "csv-excel" if excel else "csv"
    return served.serve(
        request, published_representation(request, reading, kind), render, page=False
    )


@honours_preview
def results_json(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = track_reading(request, slug, track, number)

    def render() -> HttpResponse:
        # For scripts and reproduction: in English whatever the reader's language (run labels).
        with translation.override("en"):
            the_track, rows, ranking, version, post_rows = export_rows(request, reading)
            body = exports.to_json(the_track, rows, ranking, version, post_rows)
        return HttpResponse(body, content_type="application/json; charset=utf-8")

    represented = published_representation(request, reading, "json", language="en")
    return served.serve(request, represented, render, page=False)


@honours_preview
def results_tex(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = track_reading(request, slug, track, number)

    def render() -> HttpResponse:
        the_track, rows, ranking, _version, post_rows = export_rows(request, reading)
        body = exports.to_latex(the_track, rows, ranking, post_rows)
        response = HttpResponse(body, content_type="application/x-tex; charset=utf-8")
        return _attachment(response, the_track, "tex", number)

    return served.serve(
        request, published_representation(request, reading, "tex"), render, page=False
    )


@honours_preview
def track_plot(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = track_reading(request, slug, track, number)

    def render() -> HttpResponse:
        _bakeoff, the_track, viewer, rows, _number, _version = track_rows(
            request, slug, track, reading=reading
        )
        if not viewer.sees_track(the_track.pk):
            raise Http404("The results of this track are not published yet.")
        return HttpResponse(confidence_plot(the_track, rows), content_type="image/svg+xml")

    return served.serve(
        request, published_representation(request, reading, "plot"), render, page=False
    )


@honours_preview
def bakeoff_plot(
    request: HttpRequest, slug: str, metric: str, number: int | None = None
) -> HttpResponseBase:
    bakeoff = bakeoff_or_404(slug, request.user)
    now = clock.now()
    # the plot of the results page, previewed with it: as the previewed reader sees it
    preview = preview_for(request, bakeoff)
    viewer = viewer_for(request.user, bakeoff, now, preview=preview)
    if not viewer.sees_rows:
        raise Http404("The results of this bakeoff are not published yet.")
    source = results_source(bakeoff, viewer, now, number)
    represented = None
    tracks = tracks_with_rankings(bakeoff)
    if source.version is not None and preview is None:
        represented = published_reads.representation(
            source.version,
            viewer,
            kind=f"plot-{metric}",
            path=request.get_full_path(),
            live=published_reads.live_parts(bakeoff, None, named=True, tracks=tracks),
        )

    def render() -> HttpResponse:
        shown = as_published(viewer, source.version)
        ordered, by_track, _rankings = bakeoff_series(bakeoff, shown, source, tracks)
        figure = {"f": "f", "oov": "oov_recall"}[metric]
        return HttpResponse(
            systems_plot(ordered, by_track, shown, figure), content_type="image/svg+xml"
        )

    return served.serve(request, represented, render, page=False)
