"""The leaderboard announces a publication; the apps above it may listen (it imports none)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from bakeoff.errors import Refused
from bakeoff.models import Bakeoff
from leaderboard import signals
from leaderboard.models import Publication
from leaderboard.services import do_publish
from tests.factories import close_submissions

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Iterator[list[dict[str, Any]]]:
    calls: list[dict[str, Any]] = []

    def receiver(sender: object, **kwargs: Any) -> None:
        calls.append({**kwargs, "in_transaction": transaction.get_connection().in_atomic_block})

    signals.results_published.connect(receiver)
    yield calls
    signals.results_published.disconnect(receiver)


def test_publishing_sends_results_published_inside_the_transaction(
    bakeoff: Bakeoff, heard: list[dict[str, Any]]
) -> None:
    close_submissions(bakeoff)
    now = timezone.now()
    at = now + timedelta(days=1)  # scheduled: the receivers are told when
    publication = do_publish(bakeoff, at=at, mode="anonymised", now=now)
    [kwargs] = heard
    assert kwargs["bakeoff"] == bakeoff and kwargs["publication"] == publication
    assert (kwargs["at"], kwargs["now"]) == (at, now)
    assert kwargs["in_transaction"]
    assert Publication.objects.get(bakeoff=bakeoff).mode == "anonymised"


def test_a_refused_publication_sends_nothing(bakeoff: Bakeoff, heard: list[dict[str, Any]]) -> None:
    with pytest.raises(Refused):
        do_publish(bakeoff, at=timezone.now())  # before the deadline
    assert heard == []
