"""The REST API for scripts, authenticated by a personal token (``Authorization: Token ...``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework.decorators import api_view, parser_classes
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from .. import access, clock, ratelimit, receipt, services
from ..access import bakeoff_or_404
from ..errors import Refused
from ..models import Score, Submission, SubmissionPhase, SubmissionStatus, Track
from ..services import uploads
from .errors import error


def _track(request: Request, bakeoff: str, track: str) -> Track:
    found = get_object_or_404(
        Track.objects.select_related("corpus__bakeoff"), corpus__bakeoff__slug=bakeoff, slug=track
    )
    access.visible_or_404(found.corpus.bakeoff, request.user)  # a draft is its organisers' only
    return found


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
        "phase": submission.phase,
        "official": submission.official,
        "status": submission.status,
        "received_at": submission.received_at.isoformat(),
        "checksum": submission.checksum,
        "description": submission.description,
        "withdrawn_at": submission.withdrawn_at.isoformat() if submission.withdrawn_at else None,
    }
    if submission.status == SubmissionStatus.FAILED:
        data["reason"] = submission.reason
    if submission.status == SubmissionStatus.SCORED and (show_scores or not submission.official):
        if submission.phase == SubmissionPhase.DEVELOPMENT:
            development = getattr(submission, "development_score", None)
            if development is not None:
                data["scores"] = development.result
                data["development_gold_checksum"] = development.gold_checksum
            return data
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
    """POST a run (multipart field ``file``; ``description``: the system, its method and
    resources, required on an open track; ``phase``: ``test`` by default, ``development`` or
    ``post_bakeoff``, docs/phases.md); GET lists your site's runs for the track."""
    now = receipt.received_at(request)  # when the request reached the platform
    the_track = _track(request, bakeoff, track)
    the_bakeoff = the_track.corpus.bakeoff
    if request.method == "GET":
        viewer = access.viewer_for(request.user, the_bakeoff, now)
        runs = access.visible_submissions(request.user, the_bakeoff, now, viewer=viewer)
        runs = runs.filter(track=the_track)
        current = Score.objects.filter(metric="word", superseded_at__isnull=True)
        listed = (
            runs.select_related("track__corpus__bakeoff", "site", "development_score")
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
    wait = ratelimit.upload_wait(request.user, the_bakeoff)
    if wait is not None:
        detail = ratelimit.TOO_MANY_UPLOADS.format(seconds=wait)
        limited = error("too_many_uploads", detail, 429)
        limited["Retry-After"] = str(wait)
        return limited
    try:
        uploads.check_request_size(request.META)
    except Refused as refusal:
        return Response(refusal.to_dict(), status=refusal.status_code)
    upload = request.FILES.get("file")
    if upload is None:
        return error("no_file", "Send the run as the multipart field 'file'.", 400)
    fields: Any = request.data
    phase = fields.get("phase") or SubmissionPhase.TEST
    if phase not in SubmissionPhase.values:
        return error(
            "unknown_phase", f"Unknown phase {phase!r}.", 400, phases=SubmissionPhase.values
        )
    try:
        submission = services.submit_run(
            request.user,
            the_track,
            upload,
            original_name=upload.name or "",
            phase=phase,
            description=request.POST.get("description", ""),
            now=now,
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


def _truthy(value: object) -> bool:
    return value is True or str(value).strip().lower() in {"1", "true", "yes", "on"}


@api_view(["POST"])
@parser_classes([JSONParser, FormParser, MultiPartParser])
def registrations(request: Request, bakeoff: str) -> Response:
    """Register a site (``name``, ``institution``, ``country``, ``commercial_product``) for
    ``tracks`` (a list of track slugs), with ``resources_statement`` for open tracks; or, for a
    member of a site, register that site for more tracks. The refusals are the form's, as JSON.
    After publication this registers for post-bakeoff runs (docs/phases.md)."""
    the_bakeoff = bakeoff_or_404(bakeoff, request.user)
    data: Any = request.data
    user = request.user
    if not isinstance(user, AbstractBaseUser):  # IsAuthenticated answered 401 already
        return error("not_authenticated", "Sign in first.", 401)
    slugs = data.getlist("tracks") if hasattr(data, "getlist") else data.get("tracks", [])
    if isinstance(slugs, str):
        slugs = [slugs]
    if not isinstance(slugs, list) or not all(isinstance(s, str) for s in slugs):
        return error("invalid", "'tracks' is a list of track slugs.", 400)
    found = {
        t.slug: t
        for t in Track.objects.filter(corpus__bakeoff=the_bakeoff, slug__in=slugs).select_related(
            "corpus__bakeoff"
        )
    }
    unknown = [slug for slug in slugs if slug not in found]
    if unknown:
        return error(
            "unknown_track", f"No such track in {the_bakeoff.slug}: {', '.join(unknown)}.", 400
        )
    statement = str(data.get("resources_statement", "") or "")
    tracks = {found[slug]: statement for slug in slugs}
    site = access.sites_of(user, the_bakeoff).first()
    try:
        if site is None:
            missing = [f for f in ("name", "institution") if not str(data.get(f, "")).strip()]
            if missing:
                return error(
                    "missing_fields",
                    f"Give the site's {' and '.join(missing)}.",
                    400,
                    missing=missing,
                )
            site = services.do_register_site(
                the_bakeoff,
                user,
                name=str(data["name"]).strip()[:200],
                institution=str(data["institution"]).strip()[:200],
                country=str(data.get("country", "") or "").strip()[:100],
                commercial_product=_truthy(data.get("commercial_product", False)),
                tracks=tracks,
            )
        else:
            services.do_add_registrations(site, tracks)
    except Refused as refusal:
        return Response(refusal.to_dict(), status=refusal.status_code)
    site.refresh_from_db()
    registered = site.registrations.select_related("track__corpus").order_by("track__slug")
    return Response(
        {
            "site": site.code or site.name,
            "name": site.name,
            "institution": site.institution,
            "registrations": [
                {
                    "track": r.track.slug,
                    "status": r.status,
                    "post_bakeoff": r.post_bakeoff,
                }
                for r in registered
            ],
        },
        status=201,
    )


@api_view(["POST"])
def withdraw(request: Request, bakeoff: str, track: str, pk: int) -> Response:
    """Withdraw one of your site's runs before the deadline (optional field ``reason``)."""
    now = clock.now()
    found = access.submission_for(request.user, pk, now)
    if found.track.slug != track or found.track.corpus.bakeoff.slug != bakeoff:
        raise Http404("No such submission.")
    try:
        services.do_withdraw_run(
            found, user=request.user, now=now, reason=request.POST.get("reason", "")
        )
    except Refused as refusal:
        return Response(refusal.to_dict(), status=refusal.status_code)
    viewer = access.viewer_for(request.user, found.track.corpus.bakeoff, now)
    shows = viewer.sees_row(found.track_id, found.site_id)
    return Response(represent(request, found, show_scores=shows))
