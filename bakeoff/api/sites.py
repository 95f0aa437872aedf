"""One's sites in a bakeoff as the API answers them: their members and registrations (read by
the sites operation and by ``GET registrations/``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from rest_framework.request import Request

from .. import access
from ..models import Bakeoff, Registration, Site


def _site(site: Site) -> dict[str, Any]:
    return {
        "site": site.code or site.name,
        "name": site.name,
        "institution": site.institution,
        "country": site.country,
        "commercial_product": site.commercial_product,
        "members": sorted(m.get_username() for m in site.members.all()),
        "registrations": [
            {
                "track": r.track.slug,
                "status": r.status,
                "post_bakeoff": r.post_bakeoff,
                "refusal_reason": r.refusal_reason,
            }
            for r in site.registrations.all()
        ],
    }


def my_sites(request: Request, bakeoff: Bakeoff) -> list[dict[str, Any]]:
    sites = (
        access.sites_of(request.user, bakeoff)
        .prefetch_related(
            "members",
            Prefetch(
                "registrations",
                queryset=Registration.objects.select_related("track").order_by("track__slug"),
            ),
        )
        .order_by("pk")
    )
    return [_site(site) for site in sites]
