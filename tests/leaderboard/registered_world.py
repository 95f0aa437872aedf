"""The package's shared fixtures made once for a module's world (tests/module_world.py): PK with
its BASE and TOP scored, and the participant's site registered for the closed track. A module adds
what its tests start from (runs, a rival) and clears the cache once it has built it."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.cache import cache

from bakeoff.models import Bakeoff, Corpus, Site, Track
from tests.factories import make_bakeoff, make_corpus, make_site, make_user, track
from tests.hints import OnCommit

# The shared fixtures such a world gives (theirs would make another bakeoff b2026).
SHARED = ("bakeoff", "corpus", "closed", "site", "participant", "organiser")


@dataclass
class Registered:
    """What the shared fixtures would have given."""

    organiser: User
    participant: User
    bakeoff: Bakeoff
    corpus: Corpus
    closed: Track
    site: Site


def registered(
    on_commit: OnCommit,
    *,
    domains: str | None = None,
    training: str | None = None,
    scored: bool = True,
) -> Registered:
    """``domains``, ``training``: PK's lines labelled, its segmented training text, as a module's
    own corpus fixture gives them. ``scored``: BASE and TOP scored, as this package's corpus
    (else left queued, as the shared corpus of tests/conftest.py)."""
    organiser, participant = make_user("olga", is_staff=True), make_user("pat")
    bakeoff = make_bakeoff(organiser=organiser)
    with on_commit() if scored else nullcontext():
        corpus = make_corpus(bakeoff, domains=domains, training=training)
    closed = track(corpus, "closed")
    site = make_site(bakeoff, participant, [closed])
    return Registered(organiser, participant, bakeoff, corpus, closed, site)


def registered_only(on_commit: OnCommit) -> Registered:
    """The world of a module whose tests add everything they start from: the registered site, no
    run, nothing published."""
    world = registered(on_commit)
    # No page read before a test may be served to it from the cache as if it were fresh.
    cache.clear()
    return world
