"""The API's read operations for a participant's loop, and its data loop: the bakeoffs one may
see, a bakeoff's timetable and phases, its tracks and corpora (each file's size and checksum),
one's sites with their members and registrations, one's runs in every phase; accepting a corpus's
data agreement and downloading its files.

Each reads through the owner the pages read through: ``access`` for what one may see (a draft is
its organisers' only, scores as ``Viewer.sees_row`` allows), ``services.downloads`` for the gates
of a file, ``services.do_accept_licence`` for an agreement, as the pages record it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import FileResponse, Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from .. import access, clock, services
from ..access import bakeoff_or_404, corpus_or_404
from ..errors import Refused
from ..models import Bakeoff, Corpus, SubmissionPhase, Track
from ..phase_table import FACTS
from ..published import Published
from ..services import downloads
from ..services.agreements import licence_checksum, needs_agreement
from ..services.phases import run_limit
from . import schema
from .errors import error
from .errors import refusal as refusal_answer
from .schema import BAKEOFF, CORPUS, FILE_KIND
from .sites import my_sites
from .views import published_for, represent, with_scores


def _instant(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _bakeoff_summary(request: Request, bakeoff: Bakeoff) -> dict[str, Any]:
    return {
        "slug": bakeoff.slug,
        "name": bakeoff.name,
        "url": request.build_absolute_uri(f"/api/bakeoffs/{bakeoff.slug}/"),
        "time_zone": bakeoff.time_zone,
        "submission_deadline": _instant(bakeoff.submission_deadline),
    }


@extend_schema(
    operation_id="bakeoffs_list",
    summary="The bakeoffs you may see",
    responses={200: schema.BakeoffSummary(many=True)},
)
@api_view(["GET"])
def bakeoffs(request: Request) -> Response:
    listed = access.listed_bakeoffs(request.user).order_by("-submission_deadline", "slug")
    return Response([_bakeoff_summary(request, b) for b in listed])


def _track(track: Track) -> dict[str, Any]:
    return {
        "slug": track.slug,
        "name": track.name,
        "corpus": track.corpus.abbreviation,
        "condition": track.condition,
        "max_runs": track.max_runs,
        "post_bakeoff_open": track.post_bakeoff_open,
        "run_limits": {phase.value: run_limit(track, phase) for phase in SubmissionPhase},
    }


def _tracks(bakeoff: Bakeoff) -> list[Track]:
    return list(
        Track.objects.filter(corpus__bakeoff=bakeoff)
        .select_related("corpus__bakeoff")
        .order_by("corpus__abbreviation", "condition", "slug")
    )


@extend_schema(
    operation_id="bakeoffs_retrieve",
    summary="A bakeoff: its timetable (UTC instants and its zone), phases, tracks and corpora",
    parameters=[BAKEOFF],
    responses={200: schema.BakeoffAnswer},
)
@api_view(["GET"])
def bakeoff(request: Request, bakeoff: str) -> Response:
    found = bakeoff_or_404(bakeoff, request.user)
    now = clock.now()
    return Response(
        {
            **_bakeoff_summary(request, found),
            "description": found.description,
            "timetable": {
                "registration_opens": _instant(found.registration_opens),
                "registration_closes": _instant(found.registration_closes),
                "training_released": _instant(found.training_released),
                "test_released": _instant(found.test_released),
                "submission_deadline": _instant(found.submission_deadline),
                "accepts_runs_until": _instant(found.accepts_runs_until),
                "results_published": _instant(found.results_published),
            },
            "published": found.is_published(now),
            "phases": [
                {"phase": phase.value, "label": str(facts.label), "official": facts.official}
                for phase, facts in FACTS.items()
            ],
            "tracks": [_track(t) for t in _tracks(found)],
            "corpora": [_corpus(request, c, now) for c in _corpora(found)],
        }
    )


@extend_schema(
    operation_id="tracks_list",
    summary="A bakeoff's tracks",
    parameters=[BAKEOFF],
    responses={200: schema.TrackAnswer(many=True)},
)
@api_view(["GET"])
def tracks(request: Request, bakeoff: str) -> Response:
    found = bakeoff_or_404(bakeoff, request.user)
    return Response([_track(t) for t in _tracks(found)])


def _corpora(bakeoff: Bakeoff) -> list[Corpus]:
    return list(bakeoff.corpora.select_related("bakeoff").order_by("abbreviation"))


def _corpus(request: Request, corpus: Corpus, now: datetime) -> dict[str, Any]:
    """A corpus and its files: each with its size and SHA-256, and whether you may download it
    now (and if not, the refusal's code)."""
    files = []
    for kind in downloads.FILES:
        stored = downloads.stored_file(request.user, corpus, kind)
        if stored is None:
            continue
        entry: dict[str, Any] = {
            "kind": kind,
            "name": stored.name,
            "url": request.build_absolute_uri(
                f"/api/bakeoffs/{corpus.bakeoff.slug}/corpora/{corpus.abbreviation}/files/{kind}/"
            ),
        }
        try:
            downloads.check_can_fetch(request.user, corpus, kind, now)
        except Refused as refused:
            entry["available"] = False
            entry["refusal"] = refused.code
        else:
            entry["available"] = True
            entry["size"] = stored.field.size
            entry["sha256"] = stored.checksum.removeprefix("sha256:")
        files.append(entry)
    has_licence = bool(corpus.licence.strip())
    return {
        "abbreviation": corpus.abbreviation,
        "name": corpus.name,
        "institution": corpus.institution,
        "standard": corpus.standard,
        "encoding": corpus.encoding,
        "tracks": [t.slug for t in corpus.tracks.order_by("slug")],
        "licence": corpus.licence,
        "licence_checksum": licence_checksum(corpus) if has_licence else None,
        "licence_accepted": has_licence and not needs_agreement(request.user, corpus),
        "files": files,
    }


@extend_schema(
    operation_id="corpora_list",
    summary="A bakeoff's corpora, each file with its size and checksum",
    parameters=[BAKEOFF],
    responses={200: schema.CorpusAnswer(many=True)},
)
@api_view(["GET"])
def corpora(request: Request, bakeoff: str) -> Response:
    found = bakeoff_or_404(bakeoff, request.user)
    now = clock.now()
    return Response([_corpus(request, c, now) for c in _corpora(found)])


@extend_schema(
    operation_id="corpora_agreement",
    summary="Accept a corpus's data agreement for your sites registered for it",
    parameters=[BAKEOFF, CORPUS],
    request=None,
    responses={200: schema.AgreementAnswer},
)
@api_view(["POST"])
def agreement(request: Request, bakeoff: str, corpus: str) -> Response:
    """Recorded as the agreement page records it: who, when, the checksum of the licence text."""
    found = corpus_or_404(bakeoff_or_404(bakeoff, request.user), corpus)
    user = request.user
    if not isinstance(user, AbstractBaseUser):  # IsAuthenticated answered 401 already
        raise Http404
    if not found.licence.strip():
        return error(request, "refused", _NO_LICENCE, 400)
    try:
        accepted = services.do_accept_licence(found, user)
    except Refused as refused:
        return refusal_answer(request, refused)
    return Response(
        {
            "corpus": found.abbreviation,
            "licence_checksum": licence_checksum(found),
            "acceptances": [
                {
                    "site": a.site.code or a.site.name,
                    "accepted_by": a.accepted_by.get_username() if a.accepted_by else None,
                    "accepted_at": _instant(a.accepted_at),
                }
                for a in accepted
            ],
        }
    )


@extend_schema(
    operation_id="corpora_file",
    summary="Download a corpus's file (streamed; its SHA-256 in X-Checksum-SHA256)",
    parameters=[BAKEOFF, CORPUS, FILE_KIND],
    responses={
        (200, "text/plain"): OpenApiResponse(OpenApiTypes.BINARY, description="the file"),
    },
)
@api_view(["GET"])
def data_file(request: Request, bakeoff: str, corpus: str, kind: str) -> Response | FileResponse:
    found = corpus_or_404(bakeoff_or_404(bakeoff, request.user), corpus)
    if not downloads.is_file_kind(kind):
        raise Http404("No such file.")
    try:
        stored = downloads.check_can_fetch(request.user, found, kind, clock.now())
    except Refused as refused:
        return refusal_answer(request, refused)
    answer = FileResponse(
        stored.field.open("rb"),
        as_attachment=True,
        filename=stored.name,
        content_type="text/plain; charset=utf-8",
    )
    answer["X-Checksum-SHA256"] = stored.checksum.removeprefix("sha256:")
    return answer


@extend_schema(
    operation_id="sites_list",
    summary="Your sites in a bakeoff, their members and registrations",
    parameters=[BAKEOFF],
    responses={200: schema.SiteAnswer(many=True)},
)
@api_view(["GET"])
def sites(request: Request, bakeoff: str) -> Response:
    return Response(my_sites(request, bakeoff_or_404(bakeoff, request.user)))


@extend_schema(
    operation_id="bakeoff_runs_list",
    summary="Your sites' runs of a bakeoff, in every phase, with status and figures",
    parameters=[BAKEOFF],
    responses={200: schema.RunAnswer(many=True)},
)
@api_view(["GET"])
def runs(request: Request, bakeoff: str) -> Response:
    """Only your sites' runs (the reference runs are on the tracks' pages), each with its
    figures where the pages would show them to you (the blind phase holds)."""
    found = bakeoff_or_404(bakeoff, request.user)
    now = clock.now()
    viewer = access.viewer_for(request.user, found, now)
    mine = access.visible_submissions(request.user, found, now, viewer=viewer).filter(
        site_id__in=viewer.site_ids
    )
    frozen: dict[int, Published | None] = {}
    answer = []
    for run in with_scores(mine):
        if run.track_id not in frozen:
            frozen[run.track_id] = published_for(viewer, found, run.track, now)
        answer.append(
            represent(
                request,
                run,
                show_scores=viewer.sees_row(run.track_id, run.site_id),
                published=frozen[run.track_id],
                organiser=viewer.organiser,
            )
        )
    return Response(answer)


_NO_LICENCE = _("This corpus has no data agreement to accept.")
