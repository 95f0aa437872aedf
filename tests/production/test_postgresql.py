"""Races that only a real database can show: the run limit holds under concurrent uploads."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from bakeoff import services, tasks
from bakeoff.errors import RunLimitReached
from bakeoff.models import Submission
from tests.factories import (
    NOW,
    PERFECT_RUN,
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
    # Both uploads read "no run yet" before either inserts: only the database can refuse one.
    barrier = threading.Barrier(2, timeout=10)
    original_save = Submission.save
    waited = threading.local()

    def save_after_both_counted(self: Submission, *args: Any, **kwargs: Any) -> None:
        if self.kind == "run" and not getattr(waited, "done", False):
            waited.done = True
            barrier.wait()
        return original_save(self, *args, **kwargs)

    monkeypatch.setattr(Submission, "save", save_after_both_counted)
    monkeypatch.setattr(tasks.score_submission, "delay_on_commit", lambda pk: None)
    outcomes: list[str] = []

    def upload() -> None:
        try:
            services.do_accept_run(site, track, PERFECT_RUN, user=user, now=NOW)
            outcomes.append("accepted")
        except RunLimitReached:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=upload) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["accepted", "refused"]
    assert Submission.objects.filter(site=site).count() == 1
