"""Races that only a real database can show: the run limit holds under concurrent uploads."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from django.db import connection

from bakeoff import services, tasks
from bakeoff.errors import RunLimitReached
from bakeoff.models import Submission
from tests.factories import (
    NOW,
    PERFECT_RUN,
    WORKED_RUN,
    make_bakeoff,
    make_corpus,
    make_site,
    make_user,
)

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]


def test_two_simultaneous_uploads_cannot_exceed_the_run_limit(
    media: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bakeoff = make_bakeoff(NOW)
    track = make_corpus(bakeoff, conditions=("closed",), max_runs=1, now=NOW).tracks.get()
    user = make_user("pat")
    site = make_site(bakeoff, user, [track])
    # Both uploads start together. The site's row lock serialises them, so the second sees the
    # first's run; were the lock gone, the run limit's check constraint would still refuse one
    # (tests/bakeoff/test_constraints.py).
    barrier = threading.Barrier(2, timeout=10)
    monkeypatch.setattr(tasks.score_submission, "delay_on_commit", lambda pk: None)
    outcomes: list[str] = []

    def upload(run: str) -> None:
        try:
            barrier.wait()
            services.do_accept_run(site, track, run, user=user, now=NOW)
            outcomes.append("accepted")
        except RunLimitReached:
            outcomes.append("refused")
        finally:
            connection.close()

    # Two different runs: an identical second one would be refused as such.
    threads = [threading.Thread(target=upload, args=(run,)) for run in (PERFECT_RUN, WORKED_RUN)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["accepted", "refused"]
    assert Submission.objects.filter(site=site).count() == 1
