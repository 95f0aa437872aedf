"""The REST API for scripts, authenticated by a personal token (``Authorization: Token ...``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, assert_never

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, parser_classes
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from .. import access, clock, published, ratelimit, receipt, services
from ..access import bakeoff_or_404
from ..errors import Refused, interpolate, listing
from ..forms import UploadForm, WithdrawForm
from ..models import Bakeoff, Score, Submission, SubmissionPhase, SubmissionStatus, Track
from ..phase_table import ScoredAgainst
from ..published import Published
from ..services import uploads
from .errors import error
from .errors import refusal as refusal_answer
from .fields import cleaned, fields_of
from .forms import registration_form
from .parsers import BoundedJSONParser
from .schema import (
    BAKEOFF,
    PAGE,
    PAGE_SIZE,
    RUN,
    TRACK,
    RegistrationAnswer,
    RegistrationRequest,
    RunAnswer,
    RunPage,
    SiteAnswer,
    UploadRequest,
    WithdrawRequest,
)
from .sites import my_sites


def _track(request: Request, bakeoff: str, track: str) -> Track:
    # as a page finds it: a draft is its organisers' only
    return access.bakeoff_track_or_404(bakeoff, track, request.user)


def _url(request: Request, submission: Submission) -> str:
    track = submission.track
    return request.build_absolute_uri(
        reverse(
            "api:submission",
            kwargs={"bakeoff": track.corpus.bakeoff.slug, "track": track.slug, "pk": submission.pk},
        )
    )


def represent(
    request: Request,
    submission: Submission,
    *,
    show_scores: bool,
    published: Published | None = None,
    organiser: bool = False,
) -> dict[str, Any]:
    """The run as the API shows it. After publication (``published``: the newest results version
    the reader may see) an official run's ``scores`` are that version's, named by
    ``results_version``, whatever was re-scored since; organisers also get the live score as
    ``live_scores`` (docs/api-errors.md#scores-after-publication)."""
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
    if submission.official and published is not None:
        data["results_version"] = published.version
        frozen = published.scores.get(submission.pk)
        if frozen is not None and show_scores:
            data["scores"] = frozen.result
            data["gold_version"] = frozen.gold_version.number
        if organiser:
            live = _live_score(submission)
            if live is not None:
                data["live_scores"] = live.result
                data["live_gold_version"] = live.gold_version.number
        return data
    if submission.status == SubmissionStatus.SCORED and (show_scores or not submission.official):
        match submission.phase_facts.scored_against:
            case ScoredAgainst.DEVELOPMENT_SET:
                development = getattr(submission, "development_score", None)
                if development is not None:
                    data["scores"] = development.result
                    data["development_gold_checksum"] = development.gold_checksum
            case ScoredAgainst.GOLD:
                score = _live_score(submission)
                if score is not None:
                    data["scores"] = score.result
                    data["gold_version"] = score.gold_version.number
            case unreachable:
                assert_never(unreachable)
    return data


def _live_score(submission: Submission) -> Score | None:
    if submission.status != SubmissionStatus.SCORED:
        return None
    prefetched = getattr(submission, "current_word_scores", None)
    return prefetched[0] if prefetched else submission.current_score()


def published_for(
    viewer: access.Viewer, bakeoff: Bakeoff, track: Track, now: datetime
) -> Published | None:
    """The newest results version of the track the reader may see (None before publication)."""
    return published.read(bakeoff, now, track) if viewer.published else None


def with_scores(runs: QuerySet[Submission]) -> QuerySet[Submission]:
    """Runs in the order received, each with what ``represent`` reads, in a fixed number of
    queries however many they are."""
    current = Score.objects.filter(metric="word", superseded_at__isnull=True)
    return (
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


class RunPages(PageNumberPagination):
    """Pages of runs, newest last as on the pages; ``?page=N``, ``?page_size=`` up to 500."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


@extend_schema(
    methods=["GET"],
    operation_id="runs_list",
    summary="Your site's runs of a track, in every phase",
    parameters=[BAKEOFF, TRACK, PAGE, PAGE_SIZE],
    responses={200: RunPage},
)
@extend_schema(
    methods=["POST"],
    operation_id="runs_create",
    summary="Upload a run",
    parameters=[BAKEOFF, TRACK],
    request={"multipart/form-data": UploadRequest},
    responses={201: RunAnswer},
)
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
        listed = with_scores(runs)
        # A fixed number of queries, however many runs: a count, one page of runs, the
        # current scores of that page in one, and after publication the track's newest version.
        paginator = RunPages()
        page = paginator.paginate_queryset(listed, request) or []
        frozen = published_for(viewer, the_bakeoff, the_track, now)
        return paginator.get_paginated_response(
            [
                represent(
                    request,
                    s,
                    show_scores=viewer.sees_row(s.track_id, s.site_id),
                    published=frozen,
                    organiser=viewer.organiser,
                )
                for s in page
            ]
        )
    wait = ratelimit.upload_wait(request.user, the_bakeoff)
    if wait is not None:
        detail = ratelimit.TOO_MANY_UPLOADS.format(seconds=wait)
        limited = error(request, "too_many_uploads", detail, 429)
        limited["Retry-After"] = str(wait)
        return limited
    try:
        uploads.check_request_size(request.META)
    except Refused as refusal:
        return refusal_answer(request, refusal)
    upload = request.FILES.get("file")
    if upload is None:
        return error(request, "no_file", _("Send the run as the multipart field 'file'."), 400)
    fields: Any = request.data
    phase = fields.get("phase") or SubmissionPhase.TEST
    if phase not in SubmissionPhase.values:
        return error(
            request,
            "unknown_phase",
            interpolate(_("Unknown phase %(phase)s."), phase=repr(phase)),
            400,
            phases=SubmissionPhase.values,
        )
    try:
        # The upload page's own fields: the same lengths and refusals, in the same words.
        typed = cleaned(UploadForm(fields, request.FILES, track=the_track), ["description"])
        submission = services.submit_run(
            request.user,
            the_track,
            upload,
            original_name=upload.name or "",
            phase=phase,
            description=typed["description"],
            now=now,
        )
    except Refused as refusal:
        return refusal_answer(request, refusal)
    submission.refresh_from_db()
    viewer = access.viewer_for(request.user, the_bakeoff, now)
    show_scores = viewer.sees_row(submission.track_id, submission.site_id)
    body = represent(
        request,
        submission,
        show_scores=show_scores,
        published=published_for(viewer, the_bakeoff, the_track, now),
        organiser=viewer.organiser,
    )
    return Response(body, status=201, headers={"Location": body["url"]})


@extend_schema(
    operation_id="runs_retrieve",
    summary="One run",
    parameters=[BAKEOFF, TRACK, RUN],
    responses={200: RunAnswer},
)
@api_view(["GET"])
def submission(request: Request, bakeoff: str, track: str, pk: int) -> Response:
    now = clock.now()
    found = access.submission_for(request.user, pk, now)
    if found.track.slug != track or found.track.corpus.bakeoff.slug != bakeoff:
        raise Http404("No such submission.")
    return Response(_one(request, found, now))


def _one(request: Request, found: Submission, now: datetime) -> dict[str, Any]:
    the_bakeoff = found.track.corpus.bakeoff
    viewer = access.viewer_for(request.user, the_bakeoff, now)
    return represent(
        request,
        found,
        show_scores=viewer.sees_row(found.track_id, found.site_id),
        published=published_for(viewer, the_bakeoff, found.track, now),
        organiser=viewer.organiser,
    )


@extend_schema(
    methods=["GET"],
    operation_id="registrations_list",
    summary="Your sites, their members and registrations (as sites/)",
    parameters=[BAKEOFF],
    responses={200: SiteAnswer(many=True)},
)
@extend_schema(
    methods=["POST"],
    operation_id="registrations_create",
    summary="Register a site, or your site for more tracks",
    parameters=[BAKEOFF],
    request=RegistrationRequest,
    responses={201: RegistrationAnswer},
)
@api_view(["GET", "POST"])
@parser_classes([BoundedJSONParser, FormParser, MultiPartParser])
def registrations(request: Request, bakeoff: str) -> Response:
    """Register a site (``name``, ``institution``, ``country``, ``commercial_product``) for
    ``tracks`` (a list of track slugs), with ``resources_statement`` for open tracks; or, for a
    member of a site, register that site for more tracks. The fields go through the registration
    page's form and the rules through the same service as the page's: the refusals are the same,
    as JSON. After publication this registers for post-bakeoff runs (docs/phases.md)."""
    the_bakeoff = bakeoff_or_404(bakeoff, request.user)
    if request.method == "GET":
        return Response(my_sites(request, the_bakeoff))
    data: Any = request.data
    user = request.user
    if not isinstance(user, AbstractBaseUser):  # IsAuthenticated answered 401 already
        return error(request, "not_authenticated", _("Sign in first."), 401)
    if not isinstance(data, Mapping):  # a JSON list, string, number or null
        return error(request, "invalid", _("Send the registration as one object of fields."), 400)
    slugs = data.getlist("tracks") if hasattr(data, "getlist") else data.get("tracks", [])
    if isinstance(slugs, str):
        slugs = [slugs]
    if not isinstance(slugs, list) or not all(isinstance(s, str) for s in slugs):
        return error(request, "invalid", _("'tracks' is a list of track slugs."), 400)
    # The bakeoff's few tracks, matched here: a list of a hundred thousand slugs makes no query.
    found = {
        t.slug: t
        for t in Track.objects.filter(corpus__bakeoff=the_bakeoff).select_related("corpus__bakeoff")
    }
    unknown = list(dict.fromkeys(slug for slug in slugs if slug not in found))
    if unknown:
        return error(
            request,
            "unknown_track",
            interpolate(
                _("No such track in %(bakeoff)s: %(tracks)s."),
                bakeoff=the_bakeoff.slug,
                tracks=listing(unknown),
            ),
            400,
        )
    site = access.sites_of(user, the_bakeoff).first()
    try:
        form = registration_form(
            data, the_bakeoff, [found[slug] for slug in slugs], new_site=site is None
        )
        fields = form.cleaned_data
        if site is None:
            site = services.do_register_site(
                the_bakeoff,
                user,
                name=fields["name"],
                institution=fields["institution"],
                country=fields["country"],
                commercial_product=fields["commercial_product"],
                tracks=form.track_statements(),
            )
        else:
            services.do_add_registrations(site, form.track_statements(), by=user)
    except Refused as refusal:
        return refusal_answer(request, refusal)
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


@extend_schema(
    operation_id="runs_withdraw",
    summary="Withdraw one of your site's runs",
    parameters=[BAKEOFF, TRACK, RUN],
    request=WithdrawRequest,
    responses={200: RunAnswer},
)
@api_view(["POST"])
def withdraw(request: Request, bakeoff: str, track: str, pk: int) -> Response:
    """Withdraw one of your site's runs while its phase allows: an official run until the
    deadline, a development run during the development phase, a post-bakeoff run while its track
    is open for them (optional field ``reason``)."""
    now = clock.now()
    found = access.submission_for(request.user, pk, now)
    if found.track.slug != track or found.track.corpus.bakeoff.slug != bakeoff:
        raise Http404("No such submission.")
    try:
        reason = cleaned(WithdrawForm(fields_of(request.data)), ["reason"])["reason"]
        services.do_withdraw_run(found, user=request.user, now=now, reason=reason)
    except Refused as refusal:
        return refusal_answer(request, refusal)
    return Response(_one(request, found, now))
