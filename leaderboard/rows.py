"""The rows a viewer may read, built from stored standings in one query (pages and exports)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery
from django.urls import reverse
from django.utils.translation import gettext as _

from bakeoff.figures import ROW_FIGURES
from bakeoff.models import Bakeoff, Score, SubmissionKind, SystemPaper, Track, run_label

from .models import PostBakeoffStanding, TrackRanking, TrackStanding
from .visibility import Viewer

MISSING = -1.0  # sorts "--" (undefined R_oov, R_iv) below every figure
ROW_KEYS = frozenset(f.key for f in ROW_FIGURES)


class Figures:
    """What a table row (official or post-bakeoff) reads from its stored standing and score: each
    figure of ``bakeoff.figures`` where its source keeps it (the score's, such as recall, f,
    true_words; the standing's, such as cr, cp, f_b), and for sorting ``<figure>_key``, where an
    undefined figure is MISSING."""

    standing: TrackStanding | PostBakeoffStanding
    score: Score

    @property
    def submission_id(self) -> int:
        return self.standing.submission_id

    def __getattr__(self, name: str) -> Any:
        if name in ROW_KEYS:
            return getattr(self.standing, name)
        if name.endswith("_key"):
            value = getattr(self, name.removesuffix("_key"))
            return MISSING if value is None else value
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.score, name)


@dataclass
class Row(Figures):
    standing: TrackStanding
    score: Score
    code: str
    name: str
    label: str
    url: str
    own: bool
    shown_rank: int | None = None  # the rank to show (``Viewer.ranks``)
    description: str = ""  # the run's system description (method, resources)
    paper: str = ""  # a link to the site's system-description paper for the track

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
    def css(self) -> str:
        return " ".join(c for c, on in (("reference", self.is_reference), ("own", self.own)) if on)


def standings_query(track: Track, viewer: Viewer, *, with_result: bool = False) -> Any:
    # The site's paper for the track comes in the same query.
    papers = SystemPaper.objects.filter(track=track, site=OuterRef("site_id"))
    query = (
        viewer.filter(TrackStanding.objects.filter(track=track))
        .select_related("score", "site", "submission")
        .annotate(
            paper_url=Subquery(papers.values("url")[:1]),
            paper_file=Subquery(papers.values("file")[:1]),
        )
    )
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
    papers: dict[int, tuple[str, bool]] | None = None,
) -> list[Row]:
    """Rows of ``standings`` (stored, or thawed from results ``version``: their run pages are
    that version's). ``papers``: the track's (``papers_of``), when the caller has read them."""
    rows = []
    # reversed once: ".../runs/0/" without its "0/"
    if version is None:
        run_url = reverse("leaderboard:run", args=(bakeoff.slug, track.slug, 0))[:-2]
    else:
        run_url = reverse("leaderboard:version-run", args=(bakeoff.slug, version, track.slug, 0))
        run_url = run_url[:-2]
    standings = list(standings)
    ranks = viewer.ranks(standings)
    paper_url = reverse("paper-file", args=(bakeoff.slug, track.slug, 0))[: -len("0.pdf")]
    # Stored standings carry their paper (standings_query); thawed ones look it up.
    annotated = all(hasattr(s, "paper_file") for s in standings)
    if annotated:
        papers = None
    elif papers is None:
        papers = papers_of(track)
    for standing in standings:
        if not viewer.sees_statistics:
            standing.f_b = None  # the committee may be made of the runs hidden (never saved)
        site = standing.site
        if site is None:
            code = "BASE" if standing.kind == SubmissionKind.BASELINE else "TOP"
            label = code
        else:
            code = viewer.site_code(site)
            label = run_label(code, standing.run_number)
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
                description=standing.submission.description,
                paper=_paper(standing, viewer, paper_url, papers),
            )
        )
    return rows


def may_see_paper(viewer: Viewer, site_id: int | None) -> bool:
    """A paper names its authors: it is shown where the viewer sees the site's name (not in
    results published with codes only, except to the site itself)."""
    return site_id is not None and (viewer.sees_names or site_id in viewer.site_ids)


def papers_of(track: Track) -> dict[int, tuple[str, bool]]:
    """The link and whether the file is stored, of each site's paper for the track."""
    # no order: the model's would join the track, its corpus, the site and its bakeoff to sort
    # a dict's items (a published page reads this on every request)
    found = (
        SystemPaper.objects.filter(track_id=track.pk)
        .order_by()
        .values_list("site_id", "url", "file")
    )
    return {site_id: (url, bool(file)) for site_id, url, file in found}


def _paper(
    standing: TrackStanding,
    viewer: Viewer,
    file_url: str,
    papers: dict[int, tuple[str, bool]] | None,
) -> str:
    """The link to the site's paper: annotated on a stored standing (``standings_query``),
    looked up in ``papers`` for a thawed one."""
    site_id = standing.site_id
    if site_id is None or not may_see_paper(viewer, site_id):
        return ""
    if papers is None:
        url, stored = (
            getattr(standing, "paper_url", None) or "",
            bool(getattr(standing, "paper_file", None)),
        )
    else:
        url, stored = papers.get(site_id, ("", False))
    return f"{file_url}{site_id}.pdf" if stored else url


def paper_link(bakeoff: Bakeoff, track: Track, viewer: Viewer, site_id: int | None) -> str:
    """The link to a site's system-description paper for the track, or "" (see may_see_paper)."""
    if site_id is None or not may_see_paper(viewer, site_id):
        return ""
    paper = SystemPaper.objects.filter(track=track, site_id=site_id).first()
    if paper is None:
        return ""
    return paper.url or reverse("paper-file", args=(bakeoff.slug, track.slug, site_id))


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
    every = ranking is not None and len(ranked) == ranking.ranked_runs
    if not pairs:
        return (
            _("All systems are significantly different from each other.")
            if every
            else _("All runs shown are significantly different from each other.")
        )
    listed = _(", ").join(_("%(a)s and %(b)s") % {"a": a.label, "b": b.label} for a, b in pairs)
    text = (
        _("All systems are significantly different from each other except: %(pairs)s.")
        if every
        else _("All runs shown are significantly different from each other except: %(pairs)s.")
    )
    return text % {"pairs": listed}
