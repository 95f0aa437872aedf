"""Pages and exports of the results. They read stored standings; nothing is ranked here.

Each page makes a fixed number of queries whatever the number of runs (tests count them).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from bakeoff import access, clock
from bakeoff.access import AuthenticatedHttpRequest, bakeoff_or_404, organised_or_404, track_or_404
from bakeoff.errors import NotAllowed, NotReleased, Refused
from bakeoff.models import Bakeoff, SubmissionKind, Track

from . import domains, exports, plots, services
from .comparison import comparison_lines
from .forms import PublishForm
from .models import TrackRanking, TrackStanding
from .rows import Row, pairs_note, rows_for
from .tables import standing_table
from .visibility import Viewer, viewer_for

PLOT_KIND: dict[str, str] = {
    SubmissionKind.RUN: plots.RUN,
    SubmissionKind.BASELINE: plots.BASE,
    SubmissionKind.TOPLINE: plots.TOP,
}


def _ranking(track: Track) -> TrackRanking | None:
    return TrackRanking.objects.filter(track=track).select_related("gold_version").first()


def _track_rows(
    request: HttpRequest, slug: str, track_slug: str, *, with_result: bool = False
) -> tuple[Bakeoff, Track, Viewer, list[Row]]:
    bakeoff = bakeoff_or_404(slug)
    track = track_or_404(bakeoff, track_slug)
    viewer = viewer_for(request.user, bakeoff, clock.now())
    shown = viewer.sees_track(track.pk)
    rows = rows_for(bakeoff, track, viewer, with_result=with_result) if shown else []
    return bakeoff, track, viewer, rows


def _shown_ranking(track: Track, viewer: Viewer) -> TrackRanking | None:
    return viewer.ranking(track.pk, _ranking(track) if viewer.sees_track(track.pk) else None)


def _confidence_plot(track: Track, rows: list[Row]) -> str:
    points = [
        plots.Point(row.label, row.score.f, PLOT_KIND[row.standing.kind], row.cf) for row in rows
    ]
    return plots.confidence_bars(points, title=f"{track.name}: F with its 95% confidence interval")


def track_results(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    bakeoff, the_track, viewer, rows = _track_rows(request, slug, track)
    ranking = _shown_ranking(the_track, viewer)
    table = standing_table(rows, names=viewer.sees_names or viewer.participant)
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "leaderboard/track.html",
        {
            "bakeoff": bakeoff,
            "track": the_track,
            "viewer": viewer,
            "shown": viewer.sees_track(the_track.pk),
            "table": table,
            "rows": rows,
            "ranking": ranking,
            "note": pairs_note(ranking, rows),
            "plot": mark_safe(_confidence_plot(the_track, rows)) if rows else "",
        },
    )


def track_domains(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    """The track's table by domain: one figure (F unless ``?figure=``) per domain, one column
    each; the same rows as the track's table for the same viewer."""
    bakeoff, the_track, viewer, rows = _track_rows(request, slug, track, with_result=True)
    corpus = the_track.corpus
    if not corpus.domains:
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
            "figures": [(key, label) for key, (_, label) in domains.FIGURES.items()],
            "pending": sum(1 for row in rows if "domains" not in row.score.result),
        },
    )


def _export_rows(
    request: HttpRequest, slug: str, track: str
) -> tuple[Track, list[Row], TrackRanking | None]:
    bakeoff, the_track, viewer, rows = _track_rows(request, slug, track, with_result=True)
    if not viewer.sees_track(the_track.pk):
        raise Http404("The results of this track are not published yet.")
    the_track.corpus.bakeoff = bakeoff  # for the exports' headers, without a query
    return the_track, rows, _shown_ranking(the_track, viewer)


def _attachment(response: HttpResponse, track: Track, extension: str) -> HttpResponse:
    name = f"{track.corpus.bakeoff.slug}-{track.slug}-results.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def results_csv(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    the_track, rows, ranking = _export_rows(request, slug, track)
    body = exports.to_csv(rows, ranking, the_track.corpus.domain_names)
    return _attachment(HttpResponse(body, content_type="text/csv; charset=utf-8"), the_track, "csv")


def results_json(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    the_track, rows, ranking = _export_rows(request, slug, track)
    body = exports.to_json(the_track, rows, ranking)
    return HttpResponse(body, content_type="application/json; charset=utf-8")


def results_tex(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    the_track, rows, ranking = _export_rows(request, slug, track)
    body = exports.to_latex(the_track, rows, ranking)
    response = HttpResponse(body, content_type="application/x-tex; charset=utf-8")
    return _attachment(response, the_track, "tex")


def track_plot(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    _, the_track, viewer, rows = _track_rows(request, slug, track)
    if not viewer.sees_track(the_track.pk):
        raise Http404("The results of this track are not published yet.")
    return HttpResponse(_confidence_plot(the_track, rows), content_type="image/svg+xml")


def _bakeoff_series(
    bakeoff: Bakeoff, viewer: Viewer
) -> tuple[list[Track], dict[int, list[TrackStanding]]]:
    tracks = list(
        Track.objects.filter(corpus__bakeoff=bakeoff)
        .select_related("corpus", "ranking")
        .order_by("corpus__abbreviation", "condition")
    )
    by_track: dict[int, list[TrackStanding]] = {t.pk: [] for t in tracks}
    if viewer.sees_rows:
        standings = viewer.filter(TrackStanding.objects.filter(track__corpus__bakeoff=bakeoff))
        for s in standings.select_related("score", "site").defer("score__result"):
            by_track[s.track_id].append(s)
    return tracks, by_track


def _label(viewer: Viewer, standing: TrackStanding) -> str:
    if standing.site is None:
        return "BASE" if standing.kind == SubmissionKind.BASELINE else "TOP"
    return f"{viewer.site_code(standing.site)} run {standing.run_number}"


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
        return plots.systems_by_track(series, title="F score of every system", axis="F")
    return plots.systems_by_track(series, title="OOV recall of every system", axis="OOV recall")


def bakeoff_results(request: HttpRequest, slug: str) -> HttpResponse:
    bakeoff = bakeoff_or_404(slug)
    now = clock.now()
    viewer = viewer_for(request.user, bakeoff, now)
    tracks, by_track = _bakeoff_series(bakeoff, viewer)
    figures = {}
    if viewer.sees_rows:
        figures = {
            "f": mark_safe(_systems_plot(tracks, by_track, viewer, "f")),
            "oov": mark_safe(_systems_plot(tracks, by_track, viewer, "oov_recall")),
        }
    summary = [(t, viewer.ranking(t.pk, getattr(t, "ranking", None))) for t in tracks]
    return render(
        request,
        "leaderboard/bakeoff.html",
        {
            "bakeoff": bakeoff,
            "viewer": viewer,
            "summary": summary,
            "figures": figures,
            "now": now,
        },
    )


def bakeoff_plot(request: HttpRequest, slug: str, metric: str) -> HttpResponse:
    bakeoff = bakeoff_or_404(slug)
    viewer = viewer_for(request.user, bakeoff, clock.now())
    if not viewer.sees_rows:
        raise Http404("The results of this bakeoff are not published yet.")
    tracks, by_track = _bakeoff_series(bakeoff, viewer)
    field = {"f": "f", "oov": "oov_recall"}[metric]
    return HttpResponse(
        _systems_plot(tracks, by_track, viewer, field), content_type="image/svg+xml"
    )


def _visible_standing(
    request: HttpRequest, slug: str, track: str, pk: int
) -> tuple[Bakeoff, Track, Viewer, TrackStanding]:
    bakeoff = bakeoff_or_404(slug)
    the_track = track_or_404(bakeoff, track)
    viewer = viewer_for(request.user, bakeoff, clock.now())
    standing = (
        TrackStanding.objects.filter(track=the_track, submission_id=pk)
        .select_related("score__gold_version", "site", "submission")
        .first()
    )
    if standing is None or not viewer.sees_row(the_track.pk, standing.site_id):
        raise Http404("No such run among the results you may see.")
    return bakeoff, the_track, viewer, standing


def _may_compare(
    request: HttpRequest, viewer: Viewer, track: Track, standing: TrackStanding
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


def run_results(request: HttpRequest, slug: str, track: str, pk: int) -> HttpResponse:
    bakeoff, the_track, viewer, standing = _visible_standing(request, slug, track, pk)
    ranking = _shown_ranking(the_track, viewer)
    score = standing.score
    neighbours = []
    rank = None
    if standing.rank is not None:
        # Its neighbours among the ranked rows this viewer sees, and its rank among them.
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
                    "place": "above" if other.position < standing.position else "below",
                    "different": not same,
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
            "neighbours": neighbours,
            "signature": score.result.get("signature", {}),
            "may_compare": _may_compare(request, viewer, the_track, standing),
        },
    )


def run_comparison(request: HttpRequest, slug: str, track: str, pk: int) -> StreamingHttpResponse:
    bakeoff, the_track, viewer, standing = _visible_standing(request, slug, track, pk)
    if not _may_compare(request, viewer, the_track, standing):
        raise Http404("The comparison shows the gold standard, released with the results.")
    lines = comparison_lines(
        standing.submission, standing.score.gold_version, _label(viewer, standing)
    )
    response = StreamingHttpResponse(
        (line.encode("utf-8") for line in lines), content_type="text/plain; charset=utf-8"
    )
    name = f"{bakeoff.slug}-{the_track.slug}-{pk}-comparison.txt"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def publish(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    now = clock.now()
    form = PublishForm(request.POST or None, bakeoff=bakeoff, now=now)
    if request.method == "POST" and form.is_valid():
        try:
            services.do_publish(
                bakeoff,
                at=form.cleaned_data["at"],
                mode=form.cleaned_data["mode"],
                by=request.user,
                now=now,
            )
        except Refused as refusal:
            form.add_error("at", refusal.message)
        else:
            done = "published" if bakeoff.is_published(now) else "scheduled for publication"
            messages.success(request, f"Results {done}.")
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
        services.do_withdraw_publication(bakeoff)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, "The scheduled publication is withdrawn.")
    return redirect("leaderboard:results", slug=bakeoff.slug)
