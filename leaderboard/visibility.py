"""Who sees which rows of a track's table, and under which name.

- The organiser sees every row, with site names, at any time.
- Once the results are published, everyone sees every row: with site names, or with the codes
  P1, P2... when the organiser published them anonymised.
- Before that, a member of a participating site sees BASE, TOP and their own site's runs (not
  their own when the bakeoff hides scores until publication); anyone else sees only the list of
  tracks: no row, no plot, no export.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Q, QuerySet

from bakeoff import access
from bakeoff.models import Bakeoff, Site

from .models import Publication, TrackStanding

User = access.User


@dataclass(frozen=True)
class Viewer:
    organiser: bool
    published: bool
    site_ids: frozenset[int] = frozenset()
    hide_own: bool = False
    anonymised: bool = False
    aliases: dict[str, str] = field(default_factory=dict)

    @property
    def participant(self) -> bool:
        return bool(self.site_ids)

    @property
    def sees_all(self) -> bool:
        return self.organiser or self.published

    @property
    def sees_rows(self) -> bool:
        """Anything beyond the list of tracks."""
        return self.sees_all or self.participant

    @property
    def sees_names(self) -> bool:
        return self.organiser or (self.published and not self.anonymised)

    def sees_site(self, site_id: int | None) -> bool:
        if self.sees_all:
            return True
        if site_id is None:  # BASE and TOP
            return self.participant
        return site_id in self.site_ids and not self.hide_own

    def filter(self, standings: QuerySet[TrackStanding]) -> QuerySet[TrackStanding]:
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
    published = bakeoff.is_published(now)
    publication = Publication.objects.filter(bakeoff=bakeoff).first() if published else None
    anonymised = publication is not None and publication.anonymised
    return Viewer(
        organiser=access.is_organiser(user, bakeoff),
        published=published,
        site_ids=frozenset(access.sites_of(user, bakeoff).values_list("pk", flat=True)),
        hide_own=bakeoff.hide_scores_until_publication and not published,
        anonymised=anonymised,
        aliases=dict(publication.aliases) if publication else {},
    )
