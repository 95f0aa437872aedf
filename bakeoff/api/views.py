"""The REST API for scripts, authenticated by a personal token (``Authorization: Token ...``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework.decorators import api_view, parser_classes
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from .. import access, clock, receipt, services
from ..errors import Refused
from ..models import Score, Submission, SubmissionStatus, Track
from ..services import uploads
from .errors import error


def _track(bakeoff: str, track: str) -> Track:
    return get_object_or_404(
        Track.objects.select_related("corpus__bakeoff"), corpus__bakeoff__slug=bakeoff, slug=track
    )


def _url(request: Request, submission: Submission) -> str:
    track = submission.track
    return request.build_absolute_uri(
        reverse(
            "api:submission",
            kwargs={"bakeoff": track.corpus.bakeoff.slug, "track": track.slug, "pk": submission.pk},
        )
    )


def represent(request: Request, submission: Submission, *, show_scores: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": submission.pk,
        "url": _url(request, submission),
        "track": submission.track.slug,
        "site": submission.site.code if submission.site else submission.label,
        "run_number": submission.run_number,
        "status": submission.status,
        "received_at": submission.received_at.isoformat(),
        "checksum": submission.checksum,
    }
    if submission.status == SubmissionStatus.FAILED:
        data["reason"] = submission.reason
    if submission.status == SubmissionStatus.SCORED and show_scores:
        prefetched = getattr(submission, "current_word_scores", None)
        score = prefetched[0] if prefetched else submission.current_score()
        if score is not None:
            data["scores"] = score.result
            data["gold_version"] = score.gold_version.number
    return data


class RunPages(PageNumberPagination):
    """Pages of runs, newest last as on the pages; ``?page=N``, ``?page_size=`` up to 500."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


@api_view(["GET", "POST"])
@parser_classes([MultiPartParser])
def submissions(request: Request, bakeoff: str, track: str) -> Response:
    """POST a run (multipart field ``file``); GET lists your site's runs for the track."""
    now = receipt.received_at(request)  # when the request reached the platform
    the_track = _track(bakeoff, track)
    the_bakeoff = the_track.corpus.bakeoff
    if request.method == "GET":
        viewer = access.viewer_for(request.user, the_bakeoff, now)
        runs = access.visible_submissions(request.user, the_bakeoff, now, viewer=viewer)
        runs = runs.filter(track=the_track)
        current = Score.objects.filter(metric="word", superseded_at__isnull=True)
        listed = (
            runs.select_related("track__corpus__bakeoff", "site")
            .prefetch_related(
                Prefetch(
                    "scores",
                    queryset=current.select_related("gold_version"),
                    to_attr="current_word_scores",
                )
            )
            .order_by("received_at", "pk")
        )
        # A fixed number of queries, however many runs: a count, one page of runs, and the
        # current scores of that page in one.
        paginator = RunPages()
        page = paginator.paginate_queryset(listed, request) or []
        return paginator.get_paginated_response(
            [
                represent(request, s, show_scores=viewer.sees_row(s.track_id, s.site_id))
                for s in page
            ]
        )
    try:
        uploads.check_request_size(request.META)
    except Refused as refusal:
        return Response(refusal.to_dict(), status=refusal.status_code)
    upload = request.FILES.get("file")
    if upload is None:
        return error("no_file", "Send the run as the multipart field 'file'.", 400)
    try:
        submission = services.submit_run(
            request.user, the_track, upload, original_name=upload.name or "", now=now
        )
    except Refused as refusal:
        return Response(refusal.to_dict(), status=refusal.status_code)
    submission.refresh_from_db()
    viewer = access.viewer_for(request.user, the_bakeoff, now)
    show_scores = viewer.sees_row(submission.track_id, submission.site_id)
    body = represent(request, submission, show_scores=show_scores)
    return Response(body, status=201, headers={"Location": body["url"]})


@api_view(["GET"])
def submission(request: Request, bakeoff: str, track: str, pk: int) -> Response:
    now = clock.now()
    found = access.submission_for(request.user, pk, now)
    if found.track.slug != track or found.track.corpus.bakeoff.slug != bakeoff:
        raise Http404("No such submission.")
    viewer = access.viewer_for(request.user, found.track.corpus.bakeoff, now)
    shows = viewer.sees_row(found.track_id, found.site_id)
    return Response(represent(request, found, show_scores=shows))
