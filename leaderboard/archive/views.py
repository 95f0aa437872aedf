"""Downloads of a bakeoff whole (docs/archives.md): the archives for its organisers, and the
whole bakeoff's tables and its results release for everyone once the results are published."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse

from bakeoff import clock
from bakeoff.access import AuthenticatedHttpRequest, bakeoff_or_404, organised_or_404
from bakeoff.errors import NotReleased
from bakeoff.models import Bakeoff

from .. import whole
from .export import archive_files, archive_zip


def _attachment(data: bytes | str, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def organisers_archive(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Everything, e-mail addresses included: the bakeoff's organisers only."""
    bakeoff = organised_or_404(request, slug)
    data = archive_zip(archive_files(bakeoff, now=clock.now()))
    return _attachment(data, "application/zip", f"{bakeoff.slug}-archive.zip")


@login_required
def public_archive(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The public release of the archive, made by the organisers once the results are out."""
    bakeoff = organised_or_404(request, slug)
    try:
        data = archive_zip(archive_files(bakeoff, public=True, now=clock.now()))
    except NotReleased:
        raise Http404("The results are not published yet.") from None
    return _attachment(data, "application/zip", f"{bakeoff.slug}-public-archive.zip")


def _published(request: HttpRequest, slug: str) -> Bakeoff:
    """The bakeoff, if its results are published (404 before, as for every reader)."""
    bakeoff = bakeoff_or_404(slug, request.user)
    try:
        whole.check_published(bakeoff, clock.now())
    except NotReleased:
        raise Http404("The results are not published yet.") from None
    return bakeoff


def release(request: HttpRequest, slug: str) -> HttpResponse:
    bakeoff = _published(request, slug)
    now = clock.now()
    data = whole.release_zip(bakeoff, now=now, with_data=whole.may_download(request.user, now))
    return _attachment(data, "application/zip", f"{bakeoff.slug}-results-release.zip")


def _whole(
    render: Callable[[Bakeoff], str], extension: str, content_type: str
) -> Callable[..., HttpResponse]:
    def view(request: HttpRequest, slug: str) -> HttpResponse:
        bakeoff = _published(request, slug)
        return _attachment(
            render(bakeoff), f"{content_type}; charset=utf-8", f"{bakeoff.slug}-results.{extension}"
        )

    return view


def _parts(bakeoff: Bakeoff) -> list[whole.TrackExport]:
    return whole.every_track(bakeoff, now=clock.now())


whole_csv = _whole(lambda b: whole.whole_csv(_parts(b)), "csv", "text/csv")
whole_json = _whole(
    lambda b: whole.whole_json(b, whole.check_published(b, clock.now()), _parts(b)),
    "json",
    "application/json",
)
whole_tex = _whole(lambda b: whole.whole_latex(b, _parts(b)), "tex", "application/x-tex")
