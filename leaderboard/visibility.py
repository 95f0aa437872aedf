"""Who sees which rows of a track's table, and under which name.

Which rows, and whether with scores, is the platform's one policy (``bakeoff.access.Viewer``);
this adds what the published results show of the sites (their names, or the codes P1, P2...
when the organiser published them anonymised) and how the sealed blind phase reads the stored
rankings: ranks among the rows shown, and a track's record without what hidden runs made it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime

from django.db.models import Q, QuerySet

from bakeoff import access
from bakeoff.access import User
from bakeoff.models import Bakeoff, Site

from .models import Publication, TrackRanking, TrackStanding


@dataclass(frozen=True)
class Viewer(access.Viewer):
    anonymised: bool = False
    aliases: dict[str, str] = field(default_factory=dict)

    @property
    def sees_names(self) -> bool:
        return self.organiser or (self.published and not self.anonymised)

    def filter(self, standings: QuerySet[TrackStanding]) -> QuerySet[TrackStanding]:
        """The standings whose rows ``sees_row`` shows."""
        if self.sees_all:
            return standings
        if not self.approved:
            return standings.none()
        shown = Q(site__isnull=True, track_id__in=self.track_ids)
        if not self.hide_own:
            for site, track in sorted(self.approved):
                shown |= Q(site_id=site, track_id=track)
        return standings.filter(shown)

    @property
    def ranks_among_shown(self) -> bool:
        """Before publication a participant's ranks are counted among the rows they see."""
        return not self.sees_statistics

    def ranks(self, standings: Iterable[TrackStanding]) -> dict[int, int]:
        """The rank to show of each ranked standing given (all of one track, shown to this
        viewer), by submission: the stored rank, or for ``ranks_among_shown`` one plus the number
        of rows given that rank strictly above it (equal F still share a rank)."""
        ranked = [s for s in standings if s.rank is not None]
        if not self.ranks_among_shown:
            return {s.submission_id: s.rank for s in ranked if s.rank is not None}
        stored = sorted(s.rank for s in ranked if s.rank is not None)
        return {
            s.submission_id: 1 + sum(1 for r in stored if s.rank is not None and r < s.rank)
            for s in ranked
        }

    def ranking(self, track_id: int, ranking: TrackRanking | None) -> TrackRanking | None:
        """A track's record as this viewer may read it: nothing of a track they may not see;
        before publication, without what the hidden runs made of it (counts of runs and sites,
        best F, when it was last ranked). The copy is never saved."""
        if ranking is None or not self.sees_track(track_id):
            return None
        if self.sees_statistics:
            return ranking
        shown = copy.copy(ranking)
        shown.computed_at = None  # type: ignore[assignment]
        shown.ranked_runs = shown.sites = shown.pending_runs = 0
        shown.best_f = None
        return shown

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


def publication_of(bakeoff: Bakeoff) -> Publication | None:
    """The bakeoff's publication: read with it (``access.bakeoff_track_or_404``), else now."""
    if Bakeoff.publication.is_cached(bakeoff):
        try:
            return bakeoff.publication
        except Publication.DoesNotExist:
            return None
    return Publication.objects.filter(bakeoff=bakeoff).first()


def viewer_for(
    user: User, bakeoff: Bakeoff, now: datetime, *, preview: access.Preview | None = None
) -> Viewer:
    """The policy's viewer (``access.viewer_for``, an organiser's ``preview`` included) with
    what the publication shows of the sites."""
    policy = access.viewer_for(user, bakeoff, now, preview=preview)
    publication = publication_of(bakeoff) if policy.published else None
    return Viewer(
        **{f.name: getattr(policy, f.name) for f in fields(policy)},
        anonymised=publication is not None and publication.anonymised,
        aliases=dict(publication.aliases) if publication else {},
    )
