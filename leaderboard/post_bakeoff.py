"""The post-bakeoff table of a track (docs/phases.md): unofficial runs uploaded after publication,
read from their stored rows in one query and shown under the official table, never among it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse

from bakeoff.models import Bakeoff, Score, SubmissionPhase, Track, run_label

from .models import PostBakeoffStanding
from .rows import Figures, Row
from .visibility import Viewer


@dataclass
class PostRow(Figures):
    standing: PostBakeoffStanding
    score: Score
    code: str
    name: str
    label: str
    url: str
    own: bool
    # labels of the official ranked runs this run is not significantly different from
    tied_with: list[str]
    # the run's system description (an open track's statement of resources), as an official
    # row carries it into the exports
    description: str = ""

    rank = None  # never ranked among the official runs
    is_reference = False
    css = "post-bakeoff"

    @property
    def run(self) -> str:
        return str(self.standing.run_number)

    @property
    def received_at(self) -> datetime:
        return self.standing.received_at

    @property
    def near_gold(self) -> bool:
        """Segmented exactly as the published gold on nearly every line (``NEAR_GOLD``)."""
        return self.standing.near_gold

    @property
    def lines_as_gold_percent(self) -> float | None:
        share = self.standing.lines_as_gold
        return None if share is None else 100 * share


def post_bakeoff_rows(
    bakeoff: Bakeoff,
    track: Track,
    viewer: Viewer,
    official: list[Row],
    *,
    with_result: bool = False,
) -> list[PostRow]:
    """Everyone who sees the official rows sees these: the runs came after publication, and
    their sites registered for a public table. Site names are shown (they are not part of an
    anonymised publication)."""
    if not viewer.sees_rows or not viewer.published:
        return []
    if not track.post_bakeoff_open:
        return []  # no query for the tracks never opened (closing one hides its table)
    query = (
        PostBakeoffStanding.objects.filter(track=track)
        .select_related("score", "site", "submission")
        .order_by("position")
    )
    if not with_result:
        query = query.defer("score__result")
    labels = {row.submission_id: row.label for row in official}
    run_url = reverse("leaderboard:run", args=(bakeoff.slug, track.slug, 0))[:-2]
    rows = []
    for standing in query:
        site = standing.site
        code = site.code or site.name
        rows.append(
            PostRow(
                standing=standing,
                score=standing.score,
                code=code,
                name=site.name,
                label=run_label(code, standing.run_number, SubmissionPhase.POST_BAKEOFF),
                url=f"{run_url}{standing.submission_id}/",
                own=site.pk in viewer.site_ids,
                tied_with=[labels[pk] for pk in standing.insignificant_with if pk in labels],
                description=standing.submission.description,
            )
        )
    return rows
