"""The page of a run (official or post-bakeoff) and its comparison with the gold standard."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    StreamingHttpResponse,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from bakeoff import access, clock
from bakeoff.errors import NotAllowed, NotReleased
from bakeoff.models import Bakeoff, GoldVersion, Submission, Track
from bakeoff.previews import honours_preview

from .. import published as published_reads
from .. import served, versions
from ..comparison import comparison_lines
from ..models import PostBakeoffStanding, TrackRanking, TrackStanding
from ..published import as_published, pending, pending_for_run
from ..rows import paper_link
from ..visibility import Viewer
from .reading import (
    Reading,
    Source,
    change_labeller,
    published_representation,
    shown_ranking,
    standing_label,
    track_reading,
)


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


def _visible_standing(reading: Reading, pk: int) -> RunView | PostRunView:
    bakeoff, the_track, source = reading.bakeoff, reading.track, reading.source
    viewer = as_published(reading.viewer, source.version)
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
    return RunView(bakeoff, the_track, viewer, standing, shown_ranking(the_track, viewer), source)


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
    return (viewer.organiser or own) and _may_fetch_gold(request, track)


def _may_fetch_gold(request: HttpRequest, track: Track) -> bool:
    try:
        access.check_can_download(request.user, track.corpus, "gold", clock.now())
    except (NotAllowed, NotReleased):
        return False
    return True


@honours_preview
def run_results(
    request: HttpRequest, slug: str, track: str, pk: int, number: int | None = None
) -> HttpResponseBase:
    """A run's page. An official run's, after publication, is a published representation like
    its track's page (ETag, kept per viewer class: ``served.serve_page``), whose key also says
    whether the reader may fetch the gold (the comparison's link); a post-bakeoff run's is live
    (docs/phases.md), rendered for every reader."""
    reading = track_reading(request, slug, track, number)
    represented = None
    if published_reads.viewer_class(reading.viewer) is not None and reading.source.version:
        post = PostBakeoffStanding.objects.filter(track=reading.track, submission_id=pk)
        if reading.source.named or not post.exists():
            gold = _may_fetch_gold(request, reading.track)
            represented = published_representation(request, reading, "run", beside={"gold": gold})
    return served.serve_page(
        request, represented, lambda slot: _run_page(request, reading, pk, slot)
    )


def _run_page(request: HttpRequest, reading: Reading, pk: int, header_slot: str) -> HttpResponse:
    run = _visible_standing(reading, pk)
    if isinstance(run, PostRunView):
        return _post_bakeoff_run(request, run, reading.preview)
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
                    "label": standing_label(viewer, other),
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
            "label": standing_label(viewer, standing),
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
            "header_slot": header_slot,
            "preview": reading.preview,
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
    (shown,) = versions.described([change], change_labeller(viewer))
    return ([shown["gold"]] if shown["gold"] else []) + [
        line for run_lines in shown["runs"] for line in run_lines["lines"]
    ]


def _post_bakeoff_run(
    request: HttpRequest, run: PostRunView, preview: access.Preview | None
) -> HttpResponse:
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
            "label": standing_label(viewer, standing),
            "site_name": standing.site.name,
            "ranking": None,
            "post_bakeoff": True,
            "tied": [{"standing": t, "label": standing_label(viewer, t)} for t in tied],
            "permalink": request.build_absolute_uri(
                reverse("leaderboard:run", args=(bakeoff.slug, track.slug, standing.submission_id))
            ),
            "signature": standing.score.result.get("signature", {}),
            "may_compare": _may_compare(request, viewer, track, standing),
            "preview": preview,
        },
    )


def _run_url(bakeoff: Bakeoff, track: Track, source: Source, pk: int) -> str:
    if source.number is None:
        return reverse("leaderboard:run", args=(bakeoff.slug, track.slug, pk))
    return reverse("leaderboard:version-run", args=(bakeoff.slug, source.number, track.slug, pk))


@honours_preview
def run_comparison(request: HttpRequest, slug: str, track: str, pk: int) -> StreamingHttpResponse:
    run = _visible_standing(track_reading(request, slug, track, None), pk)
    bakeoff, the_track, viewer, standing = run.bakeoff, run.track, run.viewer, run.standing
    if not _may_compare(request, viewer, the_track, standing):
        raise Http404("The comparison shows the gold standard, released with the results.")
    submission, gold = standing.submission, standing.score.gold_version
    if (
        isinstance(run, RunView) and run.source.version is not None
    ):  # thawed: the stored run and gold version it names
        submission = Submission.objects.get(pk=pk)
        gold = GoldVersion.objects.get(corpus=the_track.corpus, number=gold.number)
    lines = comparison_lines(submission, gold, standing_label(viewer, standing))
    response = StreamingHttpResponse(
        (line.encode("utf-8") for line in lines), content_type="text/plain; charset=utf-8"
    )
    name = f"{bakeoff.slug}-{the_track.slug}-{pk}-comparison.txt"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
