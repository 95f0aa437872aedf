"""The cases of tests/leaderboard/test_post_bakeoff.py before publication: that module's tests
start from one world built once, published (its ``built``); these may not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff import services
from bakeoff.errors import NotReleased
from bakeoff.models import Bakeoff, Site, SubmissionPhase, Track
from tests.factories import NEAR_PERFECT_RUN
from tests.hints import ClientFor

from .test_post_bakeoff import TRACK


def test_it_refuses_before_publication(
    bakeoff: Bakeoff, closed: Track, site: Site, participant: User
) -> None:
    closed.post_bakeoff_open = True
    closed.save()
    with pytest.raises(NotReleased):
        services.submit_run(
            participant, closed, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )


def test_post_bakeoff_rows_are_not_shown_before_publication(
    client_for: ClientFor, participant: User, site: Site, closed: Track
) -> None:
    assert "Post-bakeoff" not in client_for(participant).get(TRACK).content.decode()
