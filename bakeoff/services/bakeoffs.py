"""A bakeoff's life: a draft, seen by its organisers only, until an organiser opens it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from bakeoff.errors import interpolate

from .. import audit, clock
from ..access import Account, User
from ..errors import Refused
from ..models import Bakeoff, Track


def do_create_bakeoff(
    bakeoff: Bakeoff,
    *,
    organisers: Iterable[Account],
    by: User | None,
    source: str,
    now: datetime | None = None,
    **details: Any,
) -> Bakeoff:
    """Save a new bakeoff, validated by its form (``forms.BakeoffForm``), as a draft with its
    organisers; recorded with where it came from (``source``: page, bundle, clone) and
    ``details`` (the bundle's checksum, the bakeoff it was cloned from...)."""
    now = now or clock.now()
    with transaction.atomic():
        bakeoff.opened_at = None
        bakeoff.save()
        bakeoff.organisers.add(*organisers)
        audit.record(
            bakeoff,
            audit.BAKEOFF_CREATED,
            bakeoff.name,
            actor=by,
            now=now,
            source=source,
            **details,
        )
    return bakeoff


def check_can_open(bakeoff: Bakeoff) -> None:
    """A bakeoff opens with at least one corpus and one track, and only once."""
    if bakeoff.opened_at is not None:
        raise Refused(interpolate(_("%(name)s is open already."), name=bakeoff.name))
    if not bakeoff.corpora.exists():
        raise Refused(
            _("Add a corpus before opening the bakeoff: participants need something to do.")
        )
    if not Track.objects.filter(corpus__bakeoff=bakeoff).exists():
        raise Refused(_("Add a track (closed or open) before opening the bakeoff."))


def do_open_bakeoff(bakeoff: Bakeoff, *, by: User | None, now: datetime | None = None) -> bool:
    """Make a draft bakeoff public: listed, its pages and API open to everyone."""
    now = now or clock.now()
    check_can_open(bakeoff)
    with transaction.atomic():
        changed = Bakeoff.objects.filter(pk=bakeoff.pk, opened_at__isnull=True).update(
            opened_at=now
        )
        if changed:
            bakeoff.opened_at = now
            audit.record(
                bakeoff,
                audit.BAKEOFF_OPENED,
                bakeoff.name,
                actor=by,
                now=now,
                corpora=sorted(bakeoff.corpora.values_list("abbreviation", flat=True)),
                tracks=sorted(
                    Track.objects.filter(corpus__bakeoff=bakeoff).values_list("slug", flat=True)
                ),
            )
    return bool(changed)
