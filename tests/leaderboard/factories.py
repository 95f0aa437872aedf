"""Runs for leaderboard tests: real uploads scored by the platform, or many synthetic scores."""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth.models import User
from django.db.models import Max
from django.utils import timezone

import scoring
from bakeoff import services
from bakeoff.models import (
    Bakeoff,
    Score,
    Site,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    Track,
)
from leaderboard.services import do_publish, rank_track
from tests.bakeoff.factories import PERFECT_RUN, WORKED_RUN, make_site, make_user
from tests.hints import OnCommit

# A third system: 今天天气 as one word; 工作 split (an OOV word missed).
SPLIT_RUN = "结婚 的 和 尚未 结婚 的\n我们 在 北京 工 作\n今天天气 很 好\n"

FIELDS = (
    "recall",
    "precision",
    "f",
    "oov_rate",
    "oov_recall",
    "iv_recall",
    "true_words",
    "test_words",
    "correct",
    "oov_words",
    "correct_oov",
)
__all__ = ["PERFECT_RUN", "SPLIT_RUN", "WORKED_RUN", "make_site", "make_user"]


def upload(user: User, track: Track, text: str, on_commit: OnCommit) -> Submission:
    with on_commit():
        submission = services.submit_run(user, track, text.encode())
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED, submission.reason
    return submission


def rival(bakeoff: Bakeoff, track: Track, name: str = "Rivals") -> tuple[User, Site]:
    user = make_user(name.lower())
    return user, make_site(bakeoff, user, [track], name=name, institution=f"{name} Institute")


def close_submissions(bakeoff: Bakeoff) -> None:
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=5)
    bakeoff.save(update_fields=["submission_deadline"])


def publish(bakeoff: Bakeoff, mode: str = "names") -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=timezone.now() - timedelta(minutes=1), mode=mode)


def make_scored_runs(track: Track, count: int, *, seed: int = 0) -> list[Submission]:
    """``count`` runs of ``count // 2 + 1`` synthetic sites with plausible scores (F 0.85-0.97),
    stored as the platform stores them, then ranked once."""
    rng = random.Random(seed)
    bakeoff = track.corpus.bakeoff
    gold = track.corpus.current_gold()
    assert gold is not None
    now = timezone.now()
    first = (Site.objects.filter(bakeoff=bakeoff).aggregate(n=Max("number"))["n"] or 0) + 1
    sites = Site.objects.bulk_create(
        Site(
            bakeoff=bakeoff,
            name=f"Synthetic {first + i}",
            institution="Lab",
            country="CN",
            commercial_product=False,
            number=first + i,
        )
        for i in range(count // 2 + 1)
    )
    runs = Submission.objects.bulk_create(
        Submission(
            track=track,
            site=sites[i // 2],
            kind=SubmissionKind.RUN,
            run_number=i % 2 + 1,
            max_runs=2,
            file="runs/synthetic.txt",
            checksum="sha256:0",
            size_bytes=0,
            received_at=now,
            status=SubmissionStatus.SCORED,
            status_changed_at=now,
        )
        for i in range(count)
    )
    signature = scoring.Signature("1.0.0", gold.checksum, track.corpus.dictionary_checksum)
    rows = []
    for run in runs:
        n, oov = 100_000, 2_600
        correct = int(n * rng.uniform(0.85, 0.97))
        result = scoring.Score(
            true_words=n,
            test_words=int(n * rng.uniform(0.98, 1.02)),
            correct=correct,
            oov_words=oov,
            correct_oov=int(oov * rng.uniform(0.3, 0.8)),
            insertions=0,
            deletions=0,
            substitutions=0,
            signature=signature,
        )
        figures = result.to_dict()
        rows.append(
            Score(
                submission=run,
                gold_version=gold,
                metric="word",
                **{k: figures[k] for k in FIELDS},
                result=figures,
                signature=str(signature),
                created_at=now,
            )
        )
    Score.objects.bulk_create(rows)
    rank_track(track)
    return runs
