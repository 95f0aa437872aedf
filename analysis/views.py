"""The analysis tab of a run's page: buckets, self-diagnosis, comparison with another run.

It reads what ``services.do_analyse_track`` stored. Who sees it is the leaderboard's rule: the
run page's (``Viewer.sees_row``), and one compares only with a run one may see (a participant
before publication: their own runs, BASE and TOP); anything else answers 404.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from bakeoff import clock
from bakeoff.access import bakeoff_track_or_404, preview_for
from bakeoff.previews import honours_preview
from leaderboard.published import rows_as_published
from leaderboard.rows import Row
from leaderboard.visibility import viewer_for

from . import pages
from .models import RunAnalysis, TrackAnalysis


def _other_or_404(others: list[Row], value: str) -> Row:
    try:
        pk = int(value)
    except ValueError:
        raise Http404("No such run among the results you may see.") from None
    for row in others:
        if row.submission_id == pk:
            return row
    raise Http404("No such run among the results you may see.")


def _run_analyses(
    this: Row, other: Row | None, frozen: dict[str, Any] | None
) -> dict[int, RunAnalysis]:
    if frozen is not None:
        return pages.thawed_run_analyses(frozen.get("analysis"))
    wanted = [this.standing.score_id] + ([other.standing.score_id] if other else [])
    return {a.submission_id: a for a in RunAnalysis.objects.filter(score_id__in=wanted)}


@honours_preview
def run_analysis(request: HttpRequest, slug: str, track: str, pk: int) -> HttpResponse:
    the_track = bakeoff_track_or_404(slug, track, request.user)
    bakeoff = the_track.corpus.bakeoff
    # After publication, the rows (and the scores analysed) of the newest results version, as on
    # the track's page: a re-score since shows nowhere until an erratum publishes it.
    now = clock.now()
    preview = preview_for(request, bakeoff)  # the run page's tab, previewed with it
    viewer, rows, frozen, version = rows_as_published(
        bakeoff, the_track, viewer_for(request.user, bakeoff, now, preview=preview), now
    )
    this = next((row for row in rows if row.submission_id == pk), None)
    if this is None:
        raise Http404("No such run among the results you may see.")
    others = pages.candidates(rows, pk)
    other = _other_or_404(others, request.GET["with"]) if request.GET.get("with") else None
    domains = the_track.corpus.domain_names
    domain = request.GET.get("domain") or None
    if domain is not None and domain not in domains:
        raise Http404("No such domain in this corpus.")
    # After publication the runs' analyses that version froze (by run), before it the stored ones.
    analyses = _run_analyses(this, other, frozen)
    mine = analyses.get(this.submission_id)
    track_analysis = None
    if other is not None:
        track_analysis = (
            pages.thawed_analysis(the_track, frozen.get("analysis"))
            if frozen is not None
            else TrackAnalysis.objects.filter(track=the_track).first()
        )
    compared = None
    if other is not None and mine is not None:
        theirs = analyses.get(other.submission_id)
        compared = pages.comparison(other, mine, theirs, track_analysis, this.label, domain)
    buckets, diagnosis = pages.restricted(mine, domain) if mine else ({}, {})
    return render(
        request,
        "analysis/run.html",
        {
            "bakeoff": bakeoff,
            "track": the_track,
            "viewer": viewer,
            "preview": preview,
            "row": this,
            "analysis": mine,
            "buckets": buckets,
            "self_diagnosis": diagnosis,
            "charts": pages.attribute_charts(buckets) if buckets else [],
            "domains": domains,
            "domain": domain,
            "others": others,
            "chosen": other.submission_id if other else None,
            "compared": compared,
            "version": version,
            # a version frozen before the runs' analyses were kept with it
            "not_in_version": frozen is not None and not pages.runs_frozen(frozen.get("analysis")),
        },
    )
