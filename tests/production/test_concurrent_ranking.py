"""Runs of one track scored at once by several scoring processes (issue 25), real Celery workers
on PostgreSQL: each ranking is computed without holding the track and stored only if no other was
stored meanwhile, so the standings they leave are the ones a full ranking of every score gives."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from bakeoff import icwb2, services
from bakeoff.models import Submission, SubmissionStatus, Track
from leaderboard import services as ranking_services
from leaderboard.models import TrackRanking, TrackStanding
from tests.factories import make_bakeoff, make_site, make_user

from .conftest import ICWB2, ObjectStorage, worker_environment
from .runs import run_maker
from .smtp import SMTPServer
from .stack import CeleryWorker

pytestmark = [
    pytest.mark.production,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("icwb2_data"),
]

RUNS = 12
FINISHED = (SubmissionStatus.SCORED, SubmissionStatus.FAILED)


@pytest.fixture
def scorers(
    worker: dict[str, CeleryWorker],
    object_storage: ObjectStorage,
    worker_media: Path,
    queue_prefix: str,
    queues: dict[str, str],
    smtp_server: SMTPServer,
    tmp_path: Path,
) -> Iterator[CeleryWorker]:
    """Three more scoring processes on the session's scoring queue, beside its worker's one."""
    environment = worker_environment(
        object_storage, worker_media, queue_prefix, queues, smtp_server
    )
    started = CeleryWorker.start(
        "scorers",
        [queues["scoring"]],
        environment,
        tmp_path / "scorers.log",
        concurrency=3,
        hostname=f"{queue_prefix}scorers",
    )
    try:
        started.wait_until_ready()
        yield started
    finally:
        started.stop()


@pytest.fixture
def pku(media: ObjectStorage, scorers: CeleryWorker) -> Track:
    bakeoff = make_bakeoff(slug="race")
    corpus = icwb2.add_corpus(
        bakeoff, ICWB2, icwb2.CORPORA[3], conditions=("closed",), max_runs=RUNS
    )
    assert corpus is not None
    return corpus.tracks.get()


def standings(track: Track) -> list[tuple[Any, ...]]:
    rows = TrackStanding.objects.filter(track=track).order_by("position")
    return list(rows.values_list("submission", "score", "rank", "position", "cr", "cp", "cf"))


def figures(track: Track) -> dict[str, Any]:
    ranking = TrackRanking.objects.get(track=track)
    names = ("gold_version_id", "insignificant_pairs", "ranked_runs", "sites", "pending_runs")
    return {name: getattr(ranking, name) for name in (*names, "best_f", "fingerprint")}


def test_runs_scored_at_once_leave_the_standings_a_full_ranking_gives(
    pku: Track, scorers: CeleryWorker, wait_for: Callable[..., None]
) -> None:
    user = make_user("racer")
    site = make_site(pku.corpus.bakeoff, user, [pku])
    gold = (ICWB2 / "gold" / "pku_test_gold.utf8").read_text(encoding="utf-8-sig")
    test = (ICWB2 / "testing" / "pku_test.utf8").read_text(encoding="utf-8-sig")
    make = run_maker(gold, test)
    texts = [make(seed).decode() for seed in range(RUNS)]  # made first: queued together
    for text in texts:
        services.do_accept_run(site, pku, text, user=user, now=timezone.now())

    def all_finished() -> bool:
        return not Submission.objects.filter(track=pku).exclude(status__in=FINISHED).exists()

    def ranking_current() -> bool:
        ranking = TrackRanking.objects.filter(track=pku).first()
        current = ranking_services.scores_fingerprint(pku.pk)
        return ranking is not None and ranking.fingerprint == current

    wait_for(all_finished, timeout=600, what="every run to be scored")
    wait_for(ranking_current, timeout=120, what="the ranking to read every score")
    assert set(pku.submissions.values_list("status", flat=True)) == {SubmissionStatus.SCORED}
    stored, stored_figures = standings(pku), figures(pku)
    assert len(stored) == RUNS + 2  # every run, BASE and TOP
    assert stored_figures["ranked_runs"] == RUNS

    ranking_services.rank_track(pku.pk)  # everything again, in this process, holding the track
    assert standings(pku) == stored
    assert figures(pku) == stored_figures

    # The scores were stored by several processes at once (the pool's processes name themselves
    # in the log of each task they finished).
    log = scorers.log.read_text(encoding="utf-8", errors="replace")
    pool = set(re.findall(r"ForkPoolWorker-(\d+)\] Task \S*score_submission\S* succeeded", log))
    assert len(pool) >= 2, log[-2000:]
