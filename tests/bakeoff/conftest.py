"""The services' tests get a track and a team around the pinned time NOW (the personas, the
bakeoff and its corpus come from tests/conftest.py); the adversary's tests get the bakeoff they
probe (tests/bakeoff/adversary.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoDbBlocker

from bakeoff import services
from bakeoff.models import Bakeoff, Site, Track
from tests.bakeoff.adversary import POLYGLOT, ProbedBakeoff
from tests.factories import (
    NOW,
    WORKED_RUN,
    make_bakeoff,
    make_corpus,
    make_site,
    make_user,
    track,
    upload,
)
from tests.hints import OnCommit
from tests.module_world import built_once, captured_on_commit, own_copy


@pytest.fixture
def pk_closed(pinned_bakeoff: Bakeoff) -> Track:
    return track(make_corpus(pinned_bakeoff, now=NOW))


@pytest.fixture
def team(pinned_bakeoff: Bakeoff, participant: User, pk_closed: Track) -> Site:
    return make_site(pinned_bakeoff, participant, [pk_closed])


def build_probed(on_commit: OnCommit) -> ProbedBakeoff:
    """The bakeoff an adversary probes, with its personas: the shared fixtures' organiser,
    participant, outsider, bakeoff, corpus and site (tests/conftest.py), then the rest."""
    organiser, participant, outsider = (
        make_user("olga", is_staff=True),
        make_user("pat"),
        make_user("otto"),
    )
    bakeoff = make_bakeoff(organiser=organiser)
    corpus = make_corpus(bakeoff)  # BASE and TOP left unscored, as the shared corpus's
    closed, open_ = track(corpus, "closed"), track(corpus, "open")
    site = make_site(bakeoff, participant, [closed])
    penny, rufus, elsa, mal = (make_user(n) for n in ("penny", "rufus", "elsa", "mal"))
    make_site(bakeoff, penny, [closed], name="Pending", approved=False)
    refused = make_site(bakeoff, rufus, [closed], name="Refused", approved=False)
    services.do_refuse_registration(refused.registrations.get(), by=None, reason="no")
    make_site(bakeoff, elsa, [open_], name="Elsewhere")
    make_bakeoff(slug="other", organiser=mal)
    make_bakeoff(slug="draft", organiser=organiser, opened_at=None)
    services.do_attach_paper(participant, closed, upload=POLYGLOT, title="Our system")
    services.do_add_development_set(corpus, text=None, gold="我们 在 北京\n".encode(), by=organiser)
    run = upload(participant, closed, WORKED_RUN, on_commit)
    return ProbedBakeoff(
        bakeoff,
        corpus,
        site,
        run.pk,
        {
            "anonymous": None,
            "otto": outsider,
            "penny": penny,
            "rufus": rufus,
            "elsa": elsa,
            "mal": mal,
            "pat": participant,
            "olga": organiser,
        },
    )


@pytest.fixture(scope="module")
def probed_once(
    django_db_setup: None,
    django_db_blocker: DjangoDbBlocker,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ProbedBakeoff, Path]]:
    """Built once for a module (tests/module_world.py): every probe reads the same bakeoff."""
    media = tmp_path_factory.mktemp("probed") / "media"
    for world in built_once(django_db_blocker, media, lambda: build_probed(captured_on_commit)):
        yield world, media


@pytest.fixture
def probed(probed_once: tuple[ProbedBakeoff, Path], db: None, media_root: Path) -> ProbedBakeoff:
    """The bakeoff an adversary probes, a test's own copy (tests/bakeoff/adversary.py). The
    personas are its own: a test takes them from ``probed.people``, not from the shared fixtures."""
    return own_copy(probed_once, media_root)
