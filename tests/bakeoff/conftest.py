"""The services' tests get a track and a team around the pinned time NOW (the personas, the
bakeoff and its corpus come from tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff.models import Bakeoff, Site, Track
from tests.factories import NOW, make_corpus, make_site, track


@pytest.fixture
def pk_closed(pinned_bakeoff: Bakeoff) -> Track:
    return track(make_corpus(pinned_bakeoff, now=NOW))


@pytest.fixture
def team(pinned_bakeoff: Bakeoff, participant: User, pk_closed: Track) -> Site:
    return make_site(pinned_bakeoff, participant, [pk_closed])
