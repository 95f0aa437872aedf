"""How a mail addresses people: whom it goes to (a site's members, a bakeoff's organisers, its
participants, the sites registered for some tracks), and how it writes an instant (in the
bakeoff's zone, the reader's and UTC) and a link to a page.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.urls import reverse

from bakeoff.models import Bakeoff, RegistrationStatus, Site, Track

from .mail import absolute, recipients


def when(instant: datetime, bakeoff: Bakeoff, *, seconds: bool = False) -> str:
    """``2026-03-01 20:00:05 CST (Asia/Shanghai) = 2026-03-01 12:00:05 UTC``"""
    shape = "%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M"
    utc = f"{instant.astimezone(UTC):{shape}} UTC"
    if bakeoff.time_zone == "UTC":
        return utc
    local = instant.astimezone(bakeoff.zone)
    return f"{local:{shape}} {local.tzname()} ({bakeoff.time_zone}) = {utc}"


def when_for(instant: datetime, bakeoff: Bakeoff, zone: str) -> str:
    """``when``, led by the instant in the reader's own zone (``zone``, their choice for the
    pages) when it is another: ``2026-03-01 13:00 CET (Europe/Paris) = 2026-03-01 20:00 CST
    (Asia/Shanghai) = 2026-03-01 12:00 UTC``."""
    shown = when(instant, bakeoff)
    if not zone or zone in (bakeoff.time_zone, "UTC"):
        return shown
    try:
        local = instant.astimezone(zoneinfo.ZoneInfo(zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return shown  # a zone this server no longer knows: the bakeoff's and UTC still hold
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({zone}) = {shown}"


def members(site: Site | None) -> QuerySet[User]:
    if site is None:
        return User.objects.none()
    return recipients(site.members.filter(is_active=True).order_by("pk"))


def organisers(bakeoff: Bakeoff) -> QuerySet[User]:
    return recipients(bakeoff.organisers.filter(is_active=True).order_by("pk"))


def participants(bakeoff: Bakeoff, *, tracks: Iterable[Track] | None = None) -> QuerySet[User]:
    """Members of every site with an approved registration (for one of ``tracks``)."""
    approved = Q(sites__registrations__status=RegistrationStatus.APPROVED)
    if tracks is not None:
        approved &= Q(sites__registrations__track__in=list(tracks))
    return recipients(
        User.objects.filter(approved, sites__bakeoff=bakeoff, is_active=True)
        .distinct()
        .order_by("pk")
    )


def bakeoff_url(bakeoff: Bakeoff, name: str = "bakeoff", *args: Any) -> str:
    return absolute(reverse(name, args=[bakeoff.slug, *args]))


def registered(bakeoff: Bakeoff, *, tracks: Iterable[Track] = ()) -> QuerySet[User]:
    """Members of every registered site (pending or approved, not refused), or of the sites
    registered for one of ``tracks``."""
    sites = Site.objects.filter(
        bakeoff=bakeoff,
        registrations__status__in=(RegistrationStatus.PENDING, RegistrationStatus.APPROVED),
    )
    chosen = list(tracks)
    if chosen:
        sites = sites.filter(registrations__track__in=chosen)
    return recipients(
        User.objects.filter(sites__in=sites.values("pk"), is_active=True).distinct().order_by("pk")
    )
