"""The services' tests get a track and a team around the pinned time NOW (the personas, the
bakeoff and its corpus come from tests/conftest.py); the adversary's tests get the bakeoff they
probe (tests/bakeoff/adversary.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Site, Track
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


@pytest.fixture
def pk_closed(pinned_bakeoff: Bakeoff) -> Track:
    return track(make_corpus(pinned_bakeoff, now=NOW))


@pytest.fixture
def team(pinned_bakeoff: Bakeoff, participant: User, pk_closed: Track) -> Site:
    return make_site(pinned_bakeoff, participant, [pk_closed])


@pytest.fixture
def probed(  # the bakeoff an adversary probes, with its personas (tests/bakeoff/adversary.py)
    bakeoff: Bakeoff,
    corpus: Corpus,
    site: Site,
    participant: User,
    organiser: User,
    outsider: User,
    on_commit: OnCommit,
) -> ProbedBakeoff:
    closed, open_ = track(corpus, "closed"), track(corpus, "open")
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
