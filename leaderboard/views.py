"""Pages and exports of the results. They read stored standings; nothing is ranked here.

Each page makes a fixed number of queries whatever the number of runs (tests count them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from bakeoff import access, clock
from bakeoff.access import AuthenticatedHttpRequest, bakeoff_or_404, organised_or_404, track_or_404
from bakeoff.errors import NotAllowed, NotReleased, Refused, interpolate
from bakeoff.models import (
    Bakeoff,
    GoldVersion,
    Submission,
    SubmissionKind,
    SubmissionPhase,
    Track,
    run_label,
)

from . import domains, exports, plots, served, services, versions
from . import published as published_reads
from .comparison import comparison_lines
from .forms import ErratumForm, PublishForm
from .models import (
    PostBakeoffStanding,
    PublicationMode,
    ResultsVersion,
    TrackRanking,
    TrackStanding,
)
from .post_bakeoff import PostRow, post_bakeoff_rows
from .published import Representation, as_published, pending, pending_for_run
from .rows import Row, pairs_note, paper_link, papers_of, rows_for, rows_from
from .tables import standing_table
from .visibility import Viewer, viewer_for

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


def _source(bakeoff: Bakeoff, viewer: Viewer, now: datetime, number: int | None) -> Source:
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
    before anything is thawed (``_reading``), then the rows (``_track_rows``)."""

    bakeoff: Bakeoff
    track: Track
    viewer: Viewer
    source: Source
    # the sites' papers for the track (rows.papers_of), once read for a representation's key
    papers: dict[int, tuple[str, bool]] | None = None


def _reading(request: HttpRequest, slug: str, track_slug: str, number: int | None) -> Reading:
    bakeoff = bakeoff_or_404(slug, request.user)
    track = track_or_404(bakeoff, track_slug)
    now = clock.now()
    viewer = viewer_for(request.user, bakeoff, now)
    return Reading(bakeoff, track, viewer, _source(bakeoff, viewer, now, number))


def _representation(
    request: HttpRequest, reading: Reading, kind: str, language: str | None = None
) -> Representation | None:
    """The published representation of this track's ``kind`` (page, export, plot) that the
    reader is shown (``published.representation``), or None: rendered for them."""
    if published_reads.viewer_class(reading.viewer) is None or reading.source.version is None:
        return None
    reading.papers = papers_of(reading.track)
    live = published_reads.live_parts(
        reading.bakeoff, reading.track, named=reading.source.named, papers=reading.papers
    )
    return published_reads.representation(
        reading.source.version,
        reading.viewer,
        kind=kind,
        path=request.get_full_path(),
        live=live,
        language=language,
    )


def _track_rows(
    request: HttpRequest,
    slug: str,
    track_slug: str,
    *,
    with_result: bool = False,
    with_ranking: bool = True,
    number: int | None = None,
    reading: Reading | None = None,
) -> tuple[Bakeoff, Track, Viewer, list[Row], TrackRanking | None, Source]:
    reading = reading or _reading(request, slug, track_slug, number)
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
    ranking = _shown_ranking(track, viewer) if with_ranking else None
    return bakeoff, track, viewer, rows, ranking, source


def _shown_ranking(track: Track, viewer: Viewer) -> TrackRanking | None:
    return viewer.ranking(track.pk, _ranking(track) if viewer.sees_track(track.pk) else None)


def _confidence_plot(track: Track, rows: list[Row]) -> str:
    points = [
        plots.Point(row.label, row.score.f, PLOT_KIND[row.standing.kind], row.cf) for row in rows
    ]
    title = _("%(track)s: F with its 95%% confidence interval") % {"track": track.name}
    return plots.confidence_bars(points, title=str(title))


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


def track_results(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = _reading(request, slug, track, number)
    represented = _representation(request, reading, "track")
    return served.serve(
        request, represented, lambda: _track_page(request, reading, represented), page=True
    )


def _track_page(
    request: HttpRequest, reading: Reading, represented: Representation | None
) -> HttpResponse:
    if represented is not None and not served.page_shared(request):
        # a signed-in reader: their own header around the table of their viewer class, rendered
        # once per representation (served.fragment)
        content = served.fragment(
            request,
            represented,
            lambda: render_to_string(
                "leaderboard/_track_content.html", _track_context(request, reading), request
            ),
        )
        context = {"bakeoff": reading.bakeoff, "track": reading.track, "content": content}
        return render(request, "leaderboard/track.html", context)
    return render(request, "leaderboard/track.html", _track_context(request, reading))


def _track_context(request: HttpRequest, reading: Reading) -> dict[str, Any]:
    bakeoff, the_track, viewer, rows, ranking, source = _track_rows(
        request, reading.bakeoff.slug, reading.track.slug, reading=reading
    )
    table = standing_table(rows, names=viewer.sees_names or viewer.participant)
    RequestConfig(request, paginate=False).configure(table)
    return {
        "bakeoff": bakeoff,
        "track": the_track,
        "viewer": viewer,
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
        "plot": mark_safe(_confidence_plot(the_track, rows)) if rows else "",
    }


def track_domains(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    """The track's table by domain: one figure (F unless ``?figure=``) per domain, one column
    each; the same rows as the track's table for the same viewer."""
    bakeoff, the_track, viewer, rows, _number, _version = _track_rows(
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
            "table": table,
            "rows": rows,
            "shown": viewer.sees_track(the_track.pk),
            "figure": figure,
            "figures": [(key, label) for key, (_key, label) in domains.FIGURES.items()],
            "pending": sum(1 for row in rows if "domains" not in row.score.result),
            "shown_domains": domains.shown_domains(rows, corpus)[0],
        },
    )


def _export_rows(
    request: HttpRequest, reading: Reading
) -> tuple[Track, list[Row], TrackRanking | None, ResultsVersion | None, list[PostRow]]:
    bakeoff, the_track, viewer, rows, ranking, source = _track_rows(
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
    reading = _reading(request, slug, track, number)

    def render() -> HttpResponse:
        the_track, rows, ranking, _version, post_rows = _export_rows(request, reading)
        shown = [str(d["domain"]) for d in domains.shown_domains(rows, the_track.corpus)[0]]
        body = exports.to_csv(rows, ranking, shown, post_rows)
        if excel:
            body = exports.for_excel(body)
        response = HttpResponse(body.encode("utf-8"), content_type="text/csv; charset=utf-8")
        return _attachment(response, the_track, "excel.csv" if excel else "csv", number)

    kind = "csv-excel" if excel else "csv"
    return served.serve(request, _representation(request, reading, kind), render, page=False)


def results_json(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = _reading(request, slug, track, number)

    def render() -> HttpResponse:
        # For scripts and reproduction: in English whatever the reader's language (run labels).
        with translation.override("en"):
            the_track, rows, ranking, version, post_rows = _export_rows(request, reading)
            body = exports.to_json(the_track, rows, ranking, version, post_rows)
        return HttpResponse(body, content_type="application/json; charset=utf-8")

    represented = _representation(request, reading, "json", language="en")
    return served.serve(request, represented, render, page=False)


def results_tex(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = _reading(request, slug, track, number)

    def render() -> HttpResponse:
        the_track, rows, ranking, _version, post_rows = _export_rows(request, reading)
        body = exports.to_latex(the_track, rows, ranking, post_rows)
        response = HttpResponse(body, content_type="application/x-tex; charset=utf-8")
        return _attachment(response, the_track, "tex", number)

    return served.serve(request, _representation(request, reading, "tex"), render, page=False)


def track_plot(
    request: HttpRequest, slug: str, track: str, number: int | None = None
) -> HttpResponseBase:
    reading = _reading(request, slug, track, number)

    def render() -> HttpResponse:
        _bakeoff, the_track, viewer, rows, _number, _version = _track_rows(
            request, slug, track, reading=reading
        )
        if not viewer.sees_track(the_track.pk):
            raise Http404("The results of this track are not published yet.")
        return HttpResponse(_confidence_plot(the_track, rows), content_type="image/svg+xml")

    return served.serve(request, _representation(request, reading, "plot"), render, page=False)


def _tracks_of(bakeoff: Bakeoff) -> list[Track]:
    return list(
        Track.objects.filter(corpus__bakeoff=bakeoff)
        .select_related("corpus", "ranking")
        .order_by("corpus__abbreviation", "condition")
    )


def _bakeoff_series(
    bakeoff: Bakeoff, viewer: Viewer, source: Source, tracks: list[Track] | None = None
) -> tuple[list[Track], dict[int, list[TrackStanding]], dict[int, TrackRanking | None]]:
    tracks = _tracks_of(bakeoff) if tracks is None else tracks
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


def _change_label(viewer: Viewer) -> Callable[[dict[str, Any]], str]:
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


def _label(viewer: Viewer, standing: TrackStanding | PostBakeoffStanding) -> str:
    if isinstance(standing, PostBakeoffStanding):
        site = standing.site
        return run_label(site.code or site.name, standing.run_number, SubmissionPhase.POST_BAKEOFF)
    if standing.site is None:
        return "BASE" if standing.kind == SubmissionKind.BASELINE else "TOP"
    return run_label(viewer.site_code(standing.site), standing.run_number)


def _systems_plot(
    tracks: list[Track], by_track: dict[int, list[TrackStanding]], viewer: Viewer, metric: str
) -> str:
    series = [
        plots.Series(
            t.name,
            [
                plots.Point(_label(viewer, s), getattr(s.score, metric), PLOT_KIND[s.kind])
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


def bakeoff_results(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponseBase:
    bakeoff = bakeoff_or_404(slug, request.user)
    now = clock.now()
    viewer = viewer_for(request.user, bakeoff, now)
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
    tracks = _tracks_of(bakeoff)
    if source.version is not None and viewer.published:
        # the list of versions is on the page: a later erratum is a new representation
        parts = published_reads.live_parts(bakeoff, None, named=True, tracks=tracks)
        live = [parts, [v.pk for v in published]]
        represented = published_reads.representation(
            source.version, viewer, kind="bakeoff", path=request.get_full_path(), live=live
        )
    return served.serve(
        request,
        represented,
        lambda: _bakeoff_page(request, bakeoff, viewer, source, published, now, tracks),
        page=True,
    )


def _bakeoff_page(
    request: HttpRequest,
    bakeoff: Bakeoff,
    viewer: Viewer,
    source: Source,
    published: list[ResultsVersion],
    now: datetime,
    tracks: list[Track],
) -> HttpResponse:
    viewer = as_published(viewer, source.version)
    tracks, by_track, rankings = _bakeoff_series(bakeoff, viewer, source, tracks)
    figures = {}
    if viewer.sees_rows:
        figures = {
            "f": mark_safe(_systems_plot(tracks, by_track, viewer, "f")),
            "oov": mark_safe(_systems_plot(tracks, by_track, viewer, "oov_recall")),
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
            "summary": summary,
            "figures": figures,
            "now": now,
            "version": source.version,
            "named_version": source.named,
            "versions": published,
            "pending_runs": pending_runs,
            "changes": versions.described(source.version.changes, _change_label(viewer))
            if source.version is not None
            else [],
        },
    )


def bakeoff_plot(
    request: HttpRequest, slug: str, metric: str, number: int | None = None
) -> HttpResponseBase:
    bakeoff = bakeoff_or_404(slug, request.user)
    now = clock.now()
    viewer = viewer_for(request.user, bakeoff, now)
    if not viewer.sees_rows:
        raise Http404("The results of this bakeoff are not published yet.")
    source = _source(bakeoff, viewer, now, number)
    represented = None
    tracks = _tracks_of(bakeoff)
    if source.version is not None:
        represented = published_reads.representation(
            source.version,
            viewer,
            kind=f"plot-{metric}",
            path=request.get_full_path(),
            live=published_reads.live_parts(bakeoff, None, named=True, tracks=tracks),
        )

    def render() -> HttpResponse:
        shown = as_published(viewer, source.version)
        ordered, by_track, _rankings = _bakeoff_series(bakeoff, shown, source, tracks)
        figure = {"f": "f", "oov": "oov_recall"}[metric]
        return HttpResponse(
            _systems_plot(ordered, by_track, shown, figure), content_type="image/svg+xml"
        )

    return served.serve(request, represented, render, page=False)


@dataclass
class RunView:
    bakeoff: Bakeoff
    track: Track
    viewer: Viewer
    standing: TrackStanding
    ranking: TrackRanking | None
    source: Source
    # the ranked rows (thawed, for a frozen version; else None: read when needed)
    ranked: list[TrackStanding] | None = None
    # what the apps above froze with the track (a frozen version; else None: read them live)
    sections: dict[str, Any] | None = None


@dataclass
class PostRunView:
    """A post-bakeoff run (docs/phases.md): live, public once the results are, never in a
    results version."""

    bakeoff: Bakeoff
    track: Track
    viewer: Viewer
    standing: PostBakeoffStanding
    # the official rows as the newest results version froze them (None: no version, read live)
    official: list[TrackStanding] | None = None


def _post_bakeoff_or_404(
    bakeoff: Bakeoff,
    track: Track,
    viewer: Viewer,
    source: Source,
    pk: int,
    official: list[TrackStanding] | None = None,
) -> PostRunView:
    standing = None
    if viewer.published and not source.named:
        standing = (
            PostBakeoffStanding.objects.filter(track=track, submission_id=pk)
            .select_related("score__gold_version", "site", "submission")
            .first()
        )
    if standing is None:
        raise Http404("No such run among the results you may see.")
    return PostRunView(bakeoff, track, viewer, standing, official)


def _visible_standing(
    request: HttpRequest, slug: str, track: str, pk: int, number: int | None = None
) -> RunView | PostRunView:
    bakeoff = bakeoff_or_404(slug, request.user)
    the_track = track_or_404(bakeoff, track)
    now = clock.now()
    viewer = viewer_for(request.user, bakeoff, now)
    source = _source(bakeoff, viewer, now, number)
    viewer = as_published(viewer, source.version)
    if source.version is not None:
        thawed = versions.thawed_track(source.version, the_track)
        found = next((s for s in thawed.standings if s.submission_id == pk), None)
        if found is None:
            return _post_bakeoff_or_404(bakeoff, the_track, viewer, source, pk, thawed.standings)
        ranked = [s for s in thawed.standings if s.rank is not None]
        return RunView(
            bakeoff, the_track, viewer, found, thawed.ranking, source, ranked, thawed.sections
        )
    standing = (
        TrackStanding.objects.filter(track=the_track, submission_id=pk)
        .select_related("score__gold_version", "site", "submission")
        .first()
    )
    if standing is None:
        return _post_bakeoff_or_404(bakeoff, the_track, viewer, source, pk)
    if not viewer.sees_row(the_track.pk, standing.site_id):
        raise Http404("No such run among the results you may see.")
    return RunView(bakeoff, the_track, viewer, standing, _shown_ranking(the_track, viewer), source)


def _may_compare(
    request: HttpRequest,
    viewer: Viewer,
    track: Track,
    standing: TrackStanding | PostBakeoffStanding,
) -> bool:
    """The comparison shows the gold and the whole run: only for whom may fetch the gold (the
    organisers, and registered sites once the results are published), and of a site's run only
    for that site (BASE and TOP for everyone who may fetch the gold)."""
    own = standing.site_id is None or standing.site_id in viewer.site_ids
    if not (viewer.organiser or own):
        return False
    try:
        access.check_can_download(request.user, track.corpus, "gold", clock.now())
    except (NotAllowed, NotReleased):
        return False
    return True


def run_results(
    request: HttpRequest, slug: str, track: str, pk: int, number: int | None = None
) -> HttpResponse:
    run = _visible_standing(request, slug, track, pk, number)
    if isinstance(run, PostRunView):
        return _post_bakeoff_run(request, run)
    bakeoff, the_track, viewer, standing, ranking = (
        run.bakeoff,
        run.track,
        run.viewer,
        run.standing,
        run.ranking,
    )
    score = standing.score
    neighbours = []
    rank = None
    if standing.rank is not None:
        # Its neighbours among the ranked rows this viewer sees, and its rank among them.
        ranked = run.ranked
        if ranked is None:
            ranked = list(
                viewer.filter(TrackStanding.objects.filter(track=the_track, rank__isnull=False))
                .select_related("site", "score")
                .defer("score__result")
                .order_by("position")
            )
        ranks = viewer.ranks(ranked)
        rank = ranks.get(standing.submission_id)
        at = next(i for i, other in enumerate(ranked) if other.submission_id == pk)
        pairs = {frozenset(p) for p in (ranking.insignificant_pairs if ranking else [])}
        for other in ranked[max(at - 1, 0) : at] + ranked[at + 1 : at + 2]:
            same = frozenset((standing.submission_id, other.submission_id)) in pairs
            neighbours.append(
                {
                    "standing": other,
                    "rank": ranks.get(other.submission_id),
                    "label": _label(viewer, other),
                    "place": _("above") if other.position < standing.position else _("below"),
                    "different": not same,
                    "url": _run_url(bakeoff, the_track, run.source, other.submission_id),
                }
            )
    return render(
        request,
        "leaderboard/run.html",
        {
            "bakeoff": bakeoff,
            "track": the_track,
            "viewer": viewer,
            "standing": standing,
            "rank": rank,
            "score": score,
            "label": _label(viewer, standing),
            "site_name": viewer.site_name(standing.site),
            "ranking": ranking,
            "version": run.source.version,
            "named_version": run.source.named,
            "neighbours": neighbours,
            "signature": score.result.get("signature", {}),
            "may_compare": _may_compare(request, viewer, the_track, standing),
            "paper": paper_link(bakeoff, the_track, viewer, standing.site_id),
            "frozen_sections": run.sections,
            "pending": _pending_lines(run, viewer),
        },
    )


def _pending_lines(run: RunView, viewer: Viewer) -> list[Any]:
    """For the organisers, on the newest version's page of a run: what moved since it was
    published (a committee, a re-score), which the next erratum would publish."""
    version = run.source.version
    if not viewer.organiser or version is None or run.source.named:
        return []
    change = pending_for_run(pending(run.track, version), run.standing.submission_id)
    if change is None:
        return []
    (shown,) = versions.described([change], _change_label(viewer))
    return ([shown["gold"]] if shown["gold"] else []) + [
        line for run_lines in shown["runs"] for line in run_lines["lines"]
    ]


def _post_bakeoff_run(request: HttpRequest, run: PostRunView) -> HttpResponse:
    """The page of a post-bakeoff run: unofficial, never ranked, its figures and signature, the
    official runs it is not significantly different from, and a permanent link to cite."""
    bakeoff, track, viewer, standing = run.bakeoff, run.track, run.viewer, run.standing
    tied: list[TrackStanding]
    if run.official is not None:  # the official runs' rank and F as published
        with_it = set(standing.insignificant_with)
        tied = [s for s in run.official if s.submission_id in with_it]
    else:
        tied = list(
            TrackStanding.objects.filter(track=track, submission_id__in=standing.insignificant_with)
            .select_related("site", "score")
            .order_by("position")
        )
    return render(
        request,
        "leaderboard/run.html",
        {
            "bakeoff": bakeoff,
            "track": track,
            "viewer": viewer,
            "standing": standing,
            "score": standing.score,
            "label": _label(viewer, standing),
            "site_name": standing.site.name,
            "ranking": None,
            "post_bakeoff": True,
            "tied": [{"standing": t, "label": _label(viewer, t)} for t in tied],
            "permalink": request.build_absolute_uri(
                reverse("leaderboard:run", args=(bakeoff.slug, track.slug, standing.submission_id))
            ),
            "signature": standing.score.result.get("signature", {}),
            "may_compare": _may_compare(request, viewer, track, standing),
        },
    )


def _run_url(bakeoff: Bakeoff, track: Track, source: Source, pk: int) -> str:
    if source.number is None:
        return reverse("leaderboard:run", args=(bakeoff.slug, track.slug, pk))
    return reverse("leaderboard:version-run", args=(bakeoff.slug, source.number, track.slug, pk))


def run_comparison(request: HttpRequest, slug: str, track: str, pk: int) -> StreamingHttpResponse:
    run = _visible_standing(request, slug, track, pk)
    bakeoff, the_track, viewer, standing = run.bakeoff, run.track, run.viewer, run.standing
    if not _may_compare(request, viewer, the_track, standing):
        raise Http404("The comparison shows the gold standard, released with the results.")
    submission, gold = standing.submission, standing.score.gold_version
    if (
        isinstance(run, RunView) and run.source.version is not None
    ):  # thawed: the stored run and gold version it names
        submission = Submission.objects.get(pk=pk)
        gold = GoldVersion.objects.get(corpus=the_track.corpus, number=gold.number)
    lines = comparison_lines(submission, gold, _label(viewer, standing))
    response = StreamingHttpResponse(
        (line.encode("utf-8") for line in lines), content_type="text/plain; charset=utf-8"
    )
    name = f"{bakeoff.slug}-{the_track.slug}-{pk}-comparison.txt"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def publish(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The form, then a confirmation that shows what will become visible, then the publication."""
    bakeoff = organised_or_404(request, slug)
    now = clock.now()
    form = PublishForm(request.POST or None, bakeoff=bakeoff, now=now)
    if request.method == "POST" and form.is_valid():
        at, mode = form.cleaned_data["at"], form.cleaned_data["mode"]
        try:
            services.check_can_publish(bakeoff, at, now)
            if not form.cleaned_data["confirmed"]:
                return render(
                    request,
                    "leaderboard/publish_confirm.html",
                    {
                        "bakeoff": bakeoff,
                        "form": form,
                        "at": at,
                        "now": now,
                        "mode": mode,
                        "anonymised": mode == PublicationMode.ANONYMISED,
                        "preview": services.publication_preview(bakeoff, mode),
                    },
                )
            services.do_publish(bakeoff, at=at, mode=mode, by=request.user, now=now)
        except Refused as refusal:
            form.add_error("at", refusal.message)
        else:
            messages.success(
                request,
                _("Results published.")
                if bakeoff.is_published(now)
                else _("Results scheduled for publication."),
            )
            return redirect("leaderboard:results", slug=bakeoff.slug)
    return render(
        request,
        "leaderboard/publish.html",
        {"bakeoff": bakeoff, "form": form, "published": bakeoff.is_published(now)},
    )


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    try:
        services.do_withdraw_publication(bakeoff, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The scheduled publication is withdrawn."))
    return redirect("leaderboard:results", slug=bakeoff.slug)


@login_required
def erratum(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """What changed since the newest published version, and publishing it as an erratum."""
    bakeoff = organised_or_404(request, slug)
    now = clock.now()
    current, changes = services.pending_changes(bakeoff, now=now)
    if current is None:
        raise Http404("The results are not published: there is nothing to correct.")
    form = ErratumForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            version = services.do_publish_erratum(
                bakeoff, note=form.cleaned_data["note"], by=request.user, now=now
            )
        except Refused as refusal:
            form.add_error("note", refusal.message)
        else:
            messages.success(
                request,
                interpolate(
                    _("Erratum published as results version %(number)s."), number=version.number
                ),
            )
            return redirect("leaderboard:version", slug=bakeoff.slug, number=version.number)
    return render(
        request,
        "leaderboard/erratum.html",
        {
            "bakeoff": bakeoff,
            "form": form,
            "current": current,
            "changes": versions.described(
                changes, _change_label(viewer_for(request.user, bakeoff, now))
            ),
        },
    )
