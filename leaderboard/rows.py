"""The rows a viewer may read, built from stored standings in one query (pages and exports)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from bakeoff.models import Bakeoff, Score, SubmissionKind, Track

from .models import TrackRanking, TrackStanding
from .visibility import Viewer

MISSING = -1.0  # sorts "--" (undefined R_oov, R_iv) below every figure


@dataclass
class Row:
    standing: TrackStanding
    score: Score
    code: str
    name: str
    label: str
    url: str
    own: bool
    shown_rank: int | None = None  # the rank to show (``Viewer.ranks``)

    @property
    def rank(self) -> int | None:
        return self.shown_rank

    @property
    def position(self) -> int:
        return self.standing.position

    @property
    def is_reference(self) -> bool:
        return self.standing.kind != SubmissionKind.RUN

    @property
    def run(self) -> str:
        return "" if self.is_reference else str(self.standing.run_number)

    @property
    def submission_id(self) -> int:
        return self.standing.submission_id

    @property
    def css(self) -> str:
        return " ".join(c for c, on in (("reference", self.is_reference), ("own", self.own)) if on)

    def __getattr__(self, name: str) -> Any:
        # Figures of the score (recall, f, true_words...) and intervals of the standing (cr, cp).
        if name in {"cr", "cp", "cf", "f_b"}:
            return getattr(self.standing, name)
        if name.endswith("_key"):
            value = getattr(self, name.removesuffix("_key"))
            return MISSING if value is None else value
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.score, name)


def standings_query(track: Track, viewer: Viewer, *, with_result: bool = False) -> Any:
    query = viewer.filter(TrackStanding.objects.filter(track=track)).select_related("score", "site")
    if not with_result:
        query = query.defer("score__result")
    return query.order_by("position")


def rows_for(
    bakeoff: Bakeoff, track: Track, viewer: Viewer, *, with_result: bool = False
) -> list[Row]:
    return rows_from(
        bakeoff, track, viewer, standings_query(track, viewer, with_result=with_result)
    )


def rows_from(
    bakeoff: Bakeoff,
    track: Track,
    viewer: Viewer,
    standings: Iterable[TrackStanding],
    *,
    version: int | None = None,
) -> list[Row]:
    """Rows of ``standings`` (stored, or thawed from results ``version``: their run pages are
    that version's)."""
    rows = []
    # reversed once: ".../runs/0/" without its "0/"
    if version is None:
        run_url = reverse("leaderboard:run", args=(bakeoff.slug, track.slug, 0))[:-2]
    else:
        run_url = reverse("leaderboard:version-run", args=(bakeoff.slug, version, track.slug, 0))
        run_url = run_url[:-2]
    standings = list(standings)
    ranks = viewer.ranks(standings)
    for standing in standings:
        if not viewer.sees_statistics:
            standing.f_b = None  # the committee may be made of the runs hidden (never saved)
        site = standing.site
        if site is None:
            code = "BASE" if standing.kind == SubmissionKind.BASELINE else "TOP"
            label = code
        else:
            code = viewer.site_code(site)
            label = f"{code} run {standing.run_number}"
        rows.append(
            Row(
                standing=standing,
                score=standing.score,
                code=code,
                name=viewer.site_name(site),
                label=label,
                url=f"{run_url}{standing.submission_id}/",
                own=site is not None and site.pk in viewer.site_ids,
                shown_rank=ranks.get(standing.submission_id),
            )
        )
    return rows


def insignificant_pairs(ranking: TrackRanking | None, rows: list[Row]) -> list[tuple[Row, Row]]:
    """The stored pairs of runs not significantly different, among the rows shown."""
    if ranking is None:
        return []
    shown = {row.submission_id: row for row in rows}
    return [
        (shown[a], shown[b]) for a, b in ranking.insignificant_pairs if a in shown and b in shown
    ]


def pairs_note(ranking: TrackRanking | None, rows: list[Row]) -> str:
    """SIGHAN 2003's sentence under a table (docs/measures/intervals.md#significance), over the
    ranked rows shown."""
    ranked = [row for row in rows if row.rank is not None]
    if len(ranked) < 2:
        return ""
    pairs = insignificant_pairs(ranking, ranked)
    everyone = "All systems" if ranking and len(ranked) == ranking.ranked_runs else "All runs shown"
    if not pairs:
        return f"{everyone} are significantly different from each other."
    listed = ", ".join(f"{a.label} and {b.label}" for a, b in pairs)
    return f"{everyone} are significantly different from each other except: {listed}."
