"""What the published results say of a bakeoff's official runs, for bakeoff's own pages and API.

Once the results are published, the figures of an official (test) run that anyone reads are those
of the newest results version they may see, not the live score: a new gold version or a re-score
changes the organisers' working tables only, until an erratum publishes them
(docs/track-table.md#results-versions). The versions are the leaderboard's, a layer above this
app, so the leaderboard registers the reader in its ``AppConfig.ready()``::

    published.register(leaderboard_published.read)
    published.register_versions(leaderboard_published.versions_showing)

Without a reader (the leaderboard not installed) nothing is frozen and ``read`` answers None:
the pages show the live scores, as before publication.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext, ngettext

from .errors import listing
from .models import Bakeoff, Score, Submission, Track


@dataclass(frozen=True)
class Published:
    """The newest results version a reader may see: its number and, by submission pk, the scores
    it froze (unsaved ``Score`` instances, never to be saved; a run absent from it was not in the
    published table: pending, late, withdrawn, failed, or received after it), and whether it shows
    codes instead of the sites' names."""

    version: int
    scores: dict[int, Score] = field(default_factory=dict)
    anonymised: bool = False


# (bakeoff, track or None for every track, now) -> the newest public version, or None
Reader = Callable[[Bakeoff, Track | None, datetime], Published | None]

_readers: list[Reader] = []

# (run, now) -> {score pk: the numbers of the versions public at ``now`` whose table shows that
# score of the run, oldest first}
VersionsReader = Callable[[Submission, datetime], dict[int, list[int]]]

_versions_readers: list[VersionsReader] = []


def register(reader: Reader) -> None:
    if reader not in _readers:
        _readers.append(reader)


def register_versions(reader: VersionsReader) -> None:
    if reader not in _versions_readers:
        _versions_readers.append(reader)


def read(bakeoff: Bakeoff, now: datetime, track: Track | None = None) -> Published | None:
    """The newest results version of ``bakeoff`` public at ``now`` (of one ``track``, or of every
    track), or None when none is (before publication, or no reader)."""
    for reader in _readers:
        found = reader(bakeoff, track, now)
        if found is not None:
            return found
    return None


def versions_showing(submission: Submission, now: datetime) -> dict[int, list[int]]:
    """For each score of ``submission`` that a results version public at ``now`` shows, the
    numbers of those versions, oldest first ({} without a reader)."""
    for reader in _versions_readers:
        return reader(submission, now)
    return {}


@dataclass(frozen=True)
class HistoryRow:
    """One score of a run's history and what it is to whoever reads it."""

    score: Score
    label: str


def history(
    submission: Submission, scores: Iterable[Score], frozen: Published | None, now: datetime
) -> list[HistoryRow]:
    """A run's scores (one per gold version), each labelled by what it means to the reader.

    ``Score.superseded_at`` says only which score is the live one. Once the results are
    published, the figure that counts is the one the newest results version (``frozen``)
    shows, even when a gold version no erratum has published yet superseded it; so a score a
    results version shows says so ("published in results version 1"), and one a later erratum
    replaced names the version whose figure counts now. The organisers read the same label on
    the same row as the site; only they see the rows of unpublished gold versions ("current,
    not published").
    """
    if frozen is None:
        return [HistoryRow(score, _live_label(score, published=False)) for score in scores]
    shown_in = versions_showing(submission, now)
    return [
        HistoryRow(score, _label(score, shown_in.get(score.pk, []), frozen.version))
        for score in scores
    ]


def _label(score: Score, versions: list[int], newest: int) -> str:
    if not versions:
        return _live_label(score, published=True)
    numbers = listing(str(n) for n in versions)
    if newest in versions:
        return ngettext(
            "published in results version %(numbers)s",
            "published in results versions %(numbers)s",
            len(versions),
        ) % {"numbers": numbers}
    return ngettext(
        "published in results version %(numbers)s, superseded by version %(newest)s",
        "published in results versions %(numbers)s, superseded by version %(newest)s",
        len(versions),
    ) % {"numbers": numbers, "newest": newest}


def _live_label(score: Score, *, published: bool) -> str:
    """A score no results version shows: the live one, or one a newer gold replaced."""
    if score.superseded_at is not None:
        return gettext("superseded")
    return gettext("current, not published") if published else gettext("current")
