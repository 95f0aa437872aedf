"""Who sees which rows of a track's table, and under which name.

Which rows, and whether with scores, is the platform's one policy (``bakeoff.access.Viewer``);
this adds what the published results show of the sites: their names, or the codes P1, P2...
when the organiser published them anonymised.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime

from django.db.models import Q, QuerySet

from bakeoff import access
from bakeoff.access import User
from bakeoff.models import Bakeoff, Site

from .models import Publication, TrackStanding


@dataclass(frozen=True)
class Viewer(access.Viewer):
    anonymised: bool = False
    aliases: dict[str, str] = field(default_factory=dict)

    @property
    def sees_names(self) -> bool:
        return self.organiser or (self.published and not self.anonymised)

    def filter(self, standings: QuerySet[TrackStanding]) -> QuerySet[TrackStanding]:
        """The standings whose rows ``sees_site`` shows."""
        if self.sees_all:
            return standings
        if not self.participant:
            return standings.none()
        shown = Q(site__isnull=True)
        if not self.hide_own:
            shown |= Q(site_id__in=self.site_ids)
        return standings.filter(shown)

    def site_code(self, site: Site | None) -> str:
        if site is None:
            return ""
        if self.anonymised and not self.organiser:
            return self.aliases.get(str(site.pk), "P?")
        return site.code or "S?"

    def site_name(self, site: Site | None) -> str:
        if site is None:
            return ""
        if self.sees_names or site.pk in self.site_ids:
            return site.name
        return ""


def viewer_for(user: User, bakeoff: Bakeoff, now: datetime) -> Viewer:
    policy = access.viewer_for(user, bakeoff, now)
    publication = Publication.objects.filter(bakeoff=bakeoff).first() if policy.published else None
    return Viewer(
        **{f.name: getattr(policy, f.name) for f in fields(policy)},
        anonymised=publication is not None and publication.anonymised,
        aliases=dict(publication.aliases) if publication else {},
    )
