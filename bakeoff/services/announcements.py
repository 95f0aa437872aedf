"""Announcements of the organisers (mailed by the apps that listen to ``announcement_posted``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .. import audit, clock, signals
from ..access import Account
from ..errors import Refused
from ..models import Announcement, Bakeoff, Track


def do_post_announcement(
    bakeoff: Bakeoff,
    *,
    subject: str,
    text: str,
    tracks: Iterable[Track] = (),
    by: Account | None = None,
    now: datetime | None = None,
) -> Announcement:
    now = now or clock.now()
    chosen = list(tracks)
    if any(track.corpus.bakeoff_id != bakeoff.pk for track in chosen):
        raise Refused(_("A chosen track is not part of this bakeoff."))
    if not subject.strip() or not text.strip():
        raise Refused(_("An announcement needs a subject and a text."))
    with transaction.atomic():
        announcement = Announcement.objects.create(
            bakeoff=bakeoff,
            subject=subject.strip(),
            text=text.strip(),
            created_at=now,
            created_by=by,
        )
        announcement.tracks.set(chosen)
        audit.record(
            bakeoff,
            audit.ANNOUNCEMENT_POSTED,
            announcement.subject,
            actor=by,
            now=now,
            announcement=announcement.pk,
            tracks=[track.slug for track in chosen],
        )
        signals.announcement_posted.send(sender=Announcement, announcement=announcement, now=now)
    return announcement
