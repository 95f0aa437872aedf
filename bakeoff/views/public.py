"""Pages anyone may read: the list of bakeoffs and each bakeoff's page."""

from __future__ import annotations

from django.db import connection
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .. import access, clock
from ..access import bakeoff_or_404
from ..models import Registration, Site, Track
from ..previews import honours_preview
from ..services import timetable


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "bakeoff/home.html",
        {
            "bakeoffs": access.listed_bakeoffs(request.user),
            "can_create": access.can_create_bakeoff(request.user),
        },
    )


@honours_preview
def bakeoff_detail(request: HttpRequest, slug: str) -> HttpResponse:
    bakeoff = bakeoff_or_404(slug, request.user)
    now = clock.now()
    corpora = bakeoff.corpora.prefetch_related(
        Prefetch("tracks", queryset=Track.objects.order_by("condition"))
    )
    # an organiser may see the page as the public or a site sees it (?view=): as no organiser
    preview = access.preview_for(request, bakeoff)
    if preview is None:
        sites = access.sites_of(request.user, bakeoff)
    elif preview.kind == access.PARTICIPANT and preview.site is not None:
        sites = Site.objects.filter(pk=preview.site.pk)
    else:
        sites = Site.objects.none()
    sites = sites.prefetch_related(
        Prefetch("registrations", queryset=Registration.objects.select_related("track__corpus"))
    )
    registered = {
        r.track_id for site in sites for r in site.registrations.all() if r.status == "approved"
    }
    return render(
        request,
        "bakeoff/bakeoff_detail.html",
        {
            "bakeoff": bakeoff,
            "corpora": corpora,
            "sites": sites,
            "registered": registered,
            "is_organiser": preview is None and access.is_organiser(request.user, bakeoff),
            "can_create": preview is None and access.can_create_bakeoff(request.user),
            "preview": preview,
            "signed_in": request.user.is_authenticated
            and (preview is None or preview.kind == access.PARTICIPANT),
            "now": now,
            "registration_open": bakeoff.registration_opens <= now <= bakeoff.registration_closes,
            "submissions_open": bakeoff.test_released <= now <= bakeoff.accepts_runs_until,
            "published": bakeoff.is_published(now),
            "announcements": bakeoff.announcements.prefetch_related("tracks__corpus"),
            "timetable_changes": timetable.public_changes(bakeoff),
        },
    )


def health(request: HttpRequest) -> HttpResponse:
    """For load balancers and compose health checks: the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")
