"""The whole bakeoff at once, as readers see it after publication (docs/archives.md): every track's
table in one CSV, one JSON and one LaTeX document, and a results release (a zip of gold, test
text, tables, the measures' documentation and the scorer's version, like SIGHAN's icwb2-data).

Each track's part is the track's own export, made as the export pages make it for an anonymous
reader (``track_exports``; a test compares the two byte for byte), so an anonymised publication
stays anonymised and nothing appears here that the published pages do not show.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.utils import translation
from django.utils.translation import gettext_lazy as _

import scoring
from bakeoff import access, file_sets
from bakeoff.errors import NotReleased, Refused
from bakeoff.models import Bakeoff, Corpus, Track
from bakeoff.services import uploads

from . import domains, exports, versions
from .columns import CSV_HEADER
from .models import ResultsVersion
from .post_bakeoff import post_bakeoff_rows
from .published import as_published
from .rows import rows_for, rows_from
from .visibility import viewer_for

# The documentation of the measures that a release carries (docs/measures/).
MEASURES = Path(settings.BASE_DIR) / "docs" / "measures"
# A zip member's date: none of its own, so that the same results give the same bytes.


@dataclass(frozen=True)
class TrackExport:
    track: Track
    csv: str
    json: str
    tex: str


def check_published(bakeoff: Bakeoff, now: datetime) -> ResultsVersion:
    """The newest results version readers see, or a refusal: nothing of this is shown before."""
    version = versions.newest(bakeoff, now)
    if version is None:
        raise NotReleased(_("The results of this bakeoff are not published yet."))
    return version


def tracks_of(bakeoff: Bakeoff) -> list[Track]:
    return list(
        Track.objects.filter(corpus__bakeoff=bakeoff)
        .select_related("corpus")
        .order_by("corpus__abbreviation", "condition")
    )


def track_exports(
    bakeoff: Bakeoff, track: Track, *, now: datetime, number: int | None = None
) -> TrackExport:
    """The track's CSV, JSON and LaTeX as the export pages give them to an anonymous reader, in
    English: of the newest version with the post-bakeoff runs (``number`` None), or of results
    version ``number``."""
    viewer = viewer_for(AnonymousUser(), bakeoff, now)
    if number is None:
        thawed = versions.newest_thawed_track(bakeoff, track, now)
        version = thawed.version if thawed else None
    else:
        version = ResultsVersion.objects.get(bakeoff=bakeoff, number=number, published_at__lte=now)
        thawed = versions.thawed_track(version, track)
    viewer = as_published(viewer, version)
    if thawed is not None:
        rows = rows_from(bakeoff, track, viewer, thawed.standings, version=number)
        ranking = thawed.ranking
    else:
        rows = rows_for(bakeoff, track, viewer, with_result=True) if viewer.sees_rows else []
        ranking = None
    track.corpus.bakeoff = bakeoff
    post_rows = (
        post_bakeoff_rows(bakeoff, track, viewer, rows, with_result=True) if number is None else []
    )
    with translation.override("en"):
        shown = [str(d["domain"]) for d in domains.shown_domains(rows, track.corpus)[0]]
        return TrackExport(
            track,
            csv=exports.to_csv(rows, ranking, shown, post_rows),
            json=exports.to_json(track, rows, ranking, version, post_rows),
            tex=exports.to_latex(track, rows, ranking, post_rows),
        )


def every_track(bakeoff: Bakeoff, *, now: datetime, number: int | None = None) -> list[TrackExport]:
    return [track_exports(bakeoff, t, now=now, number=number) for t in tracks_of(bakeoff)]


def whole_csv(parts: list[TrackExport]) -> str:
    """Every track's rows in one table, each led by its track. The columns are the tracks'
    common ones (``columns.CSV_HEADER``); the figures per domain, which differ by corpus, are in
    each track's own CSV."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["track", *CSV_HEADER])
    width = len(CSV_HEADER)
    for part in parts:
        rows = list(csv.reader(io.StringIO(part.csv)))
        for row in rows[1:]:
            writer.writerow([part.track.slug, *row[:width]])
    return out.getvalue()


def whole_json(bakeoff: Bakeoff, version: ResultsVersion, parts: list[TrackExport]) -> str:
    data: dict[str, Any] = {
        "bakeoff": bakeoff.slug,
        "name": bakeoff.name,
        "results_version": version.number,
        "published_at": version.published_at.isoformat(),
        "scorer_version": scoring.__version__,
        "tracks": [json.loads(part.json) for part in parts],
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def whole_latex(bakeoff: Bakeoff, parts: list[TrackExport]) -> str:
    """One LaTeX document: every track's table (and its table by domain), in track order."""
    title = exports.latex_escape(bakeoff.name)
    lines = [
        "\\documentclass{article}",
        "\\usepackage{booktabs}",
        "\\usepackage{xeCJK}",
        "\\usepackage{url}",
        f"\\title{{{title}: results}}",
        "\\date{}",
        "\\begin{document}",
        "\\maketitle",
        "",
    ]
    for part in parts:
        lines += [part.tex, "\\clearpage", ""]
    lines += ["\\end{document}", ""]
    return "\n".join(lines)


def tables(bakeoff: Bakeoff, *, now: datetime) -> dict[str, bytes]:
    """The published tables as files: each track's of the newest version (with its post-bakeoff
    runs) and of every version, and the whole bakeoff's of the newest."""
    newest = check_published(bakeoff, now)
    files: dict[str, bytes] = {}
    parts = every_track(bakeoff, now=now)
    for part in parts:
        for extension in ("csv", "json", "tex"):
            files[f"tables/{part.track.slug}.{extension}"] = getattr(part, extension).encode()
    files["tables/all-tracks.csv"] = whole_csv(parts).encode()
    files["tables/all-tracks.json"] = whole_json(bakeoff, newest, parts).encode()
    files["tables/all-tracks.tex"] = whole_latex(bakeoff, parts).encode()
    published = ResultsVersion.objects.filter(bakeoff=bakeoff, published_at__lte=now)
    for version in published.order_by("number"):
        for part in every_track(bakeoff, now=now, number=version.number):
            for extension in ("csv", "json", "tex"):
                name = f"tables/v{version.number}/{part.track.slug}.{extension}"
                files[name] = getattr(part, extension).encode()
    return files


def may_download(user: User | AnonymousUser, now: datetime) -> Callable[[Corpus], bool]:
    """Whether ``user`` may download a corpus's gold and test text (``access``: its organisers,
    and the sites registered for it once the results are out): a release carries a corpus's
    data only for them, as the corpus's data page does."""

    def allowed(corpus: Corpus) -> bool:
        if not user.is_authenticated:
            return False
        try:
            for kind in ("gold", "test_text"):
                access.check_can_download(user, corpus, kind, now)
        except Refused:
            return False
        return True

    return allowed


def release_files(
    bakeoff: Bakeoff, *, now: datetime, with_data: Callable[[Corpus], bool]
) -> dict[str, bytes]:
    """What a results release holds (docs/archives.md): the tables, the measures and the
    scorer's version, and the gold and test text of each corpus ``with_data`` allows."""
    check_published(bakeoff, now)
    files = tables(bakeoff, now=now)
    withheld = []
    for corpus in bakeoff.corpora.order_by("abbreviation"):
        if not with_data(corpus):
            withheld.append(corpus.abbreviation)
            continue
        gold = corpus.current_gold()
        if gold is not None:
            files[f"gold/{corpus.abbreviation}.txt"] = uploads.read_stored(gold.file)
        files[f"test/{corpus.abbreviation}.txt"] = uploads.read_stored(corpus.test_text)
    for page in sorted(MEASURES.glob("*.md")):
        files[f"docs/measures/{page.name}"] = page.read_bytes()
    files["SCORER_VERSION"] = f"{scoring.__version__}\n".encode()
    files["README.txt"] = _readme(bakeoff, files, withheld).encode()
    return files


def _readme(bakeoff: Bakeoff, files: dict[str, bytes], withheld: list[str]) -> str:
    corpora = ", ".join(
        f"{c.abbreviation} ({c.encoding})" for c in bakeoff.corpora.order_by("abbreviation")
    )
    kept = (
        [
            f"Not included: the gold and test text of {', '.join(withheld)}, for the sites "
            "registered for them under the corpus's data agreement (log in to have them).",
        ]
        if withheld
        else []
    )
    return "\n".join(
        [
            f"{bakeoff.name}: results release",
            "",
            f"Corpora: {corpora}.",
            *kept,
            "gold/ABBR.txt   the gold of each corpus (its newest version), in UTF-8",
            "test/ABBR.txt   the test text given to the sites, in UTF-8",
            "tables/         each track's table (CSV, JSON, LaTeX) as published, with its",
            "                post-bakeoff runs; tables/vN/ each results version; all-tracks.*",
            "                every track at once",
            "docs/measures/  how every figure is computed",
            f"SCORER_VERSION  the scorer that made the figures ({scoring.__version__}):",
            "                python -m scoring score --dict WORDS gold/ABBR.txt RUN reproduces",
            "                a run's figures (WORDS: the corpus's training word list)",
            "",
            f"{len(files)} files.",
            "",
        ]
    )


def release_zip(bakeoff: Bakeoff, *, now: datetime, with_data: Callable[[Corpus], bool]) -> bytes:
    return file_sets.zip_bytes(release_files(bakeoff, now=now, with_data=with_data))
