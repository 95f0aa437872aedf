"""What the published results say of a bakeoff's official runs, for bakeoff's own pages and API.

Once the results are published, the figures of an official (test) run that anyone reads are those
of the newest results version they may see, not the live score: a new gold version or a re-score
changes the organisers' working tables only, until an erratum publishes them
(docs/track-table.md#results-versions). The versions are the leaderboard's, a layer above this
app, so the leaderboard registers the reader in its ``AppConfig.ready()``::

    published.register(leaderboard_published.read)

Without a reader (the leaderboard not installed) nothing is frozen and ``read`` answers None:
the pages show the live scores, as before publication.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from .models import Bakeoff, Score, Track


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


def register(reader: Reader) -> None:
    if reader not in _readers:
        _readers.append(reader)


def read(bakeoff: Bakeoff, now: datetime, track: Track | None = None) -> Published | None:
    """The newest results version of ``bakeoff`` public at ``now`` (of one ``track``, or of every
    track), or None when none is (before publication, or no reader)."""
    for reader in _readers:
        found = reader(bakeoff, track, now)
        if found is not None:
            return found
    return None
