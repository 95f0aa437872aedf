"""A real icwb2 run scored end to end by a real worker, on PostgreSQL with Redis."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from pytest_django import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import scoring
from analysis.models import RunAnalysis
from bakeoff import icwb2, services, tasks
from bakeoff.models import Bakeoff, Score, Submission, SubmissionStatus, Track
from tests.factories import make_bakeoff, make_site, make_user

from .conftest import ICWB2, ObjectStorage

pytestmark = [
    pytest.mark.production,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("icwb2_data"),
]

PKU = icwb2.CORPORA[3]


@pytest.fixture
def pku(media: ObjectStorage, worker: subprocess.Popen[bytes]) -> Track:
    """The real PKU corpus of SIGHAN 2005, in a bakeoff open for runs."""
    bakeoff = make_bakeoff(slug="prod")
    corpus = icwb2.add_corpus(bakeoff, ICWB2, PKU, conditions=("closed",))
    assert corpus is not None
    return corpus.tracks.get()


def current_f(submission: Submission) -> float:
    score = submission.current_score()
    assert score is not None and score.f is not None, submission
    return score.f


def status_of(pk: int) -> str:
    return Submission.objects.get(pk=pk).status


def finished(pk: int) -> bool:
    return status_of(pk) in (SubmissionStatus.SCORED, SubmissionStatus.FAILED)


def test_the_worker_scores_base_and_top_of_pku(pku: Track, wait_for: Callable[..., None]) -> None:
    for submission in pku.submissions.all():
        wait_for(lambda s=submission: finished(s.pk), what=f"{submission} to be scored")
    f = {s.kind: round(current_f(s), 3) for s in pku.submissions.all()}
    assert f == {"baseline": 0.874, "topline": 0.988}  # docs/measures/maxmatch.md


def test_a_run_uploaded_through_the_api_is_scored_by_the_worker(
    pku: Track, wait_for: Callable[..., None]
) -> None:
    participant = make_user("pat")
    make_site(Bakeoff.objects.get(slug="prod"), participant, [pku])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=participant).key}")
    test_text = (ICWB2 / "testing" / "pku_test.utf8").read_text(encoding="utf-8-sig")
    words = scoring.read_dictionary(ICWB2 / "gold" / "pku_training_words.utf8")
    run = scoring.baseline_run(test_text, words).encode()

    answer = client.post(
        "/api/bakeoffs/prod/tracks/pku-closed/submissions/",
        {"file": SimpleUploadedFile("run.utf8", run)},
        format="multipart",
    )
    assert answer.status_code == 201, answer.content
    url = answer.json()["url"]
    wait_for(lambda: client.get(url).json()["status"] == "scored", what="the run to be scored")
    scores = client.get(url).json()["scores"]
    assert round(scores["f"], 3) == 0.874
    assert scores["true_words"] == 104372  # the SIGHAN 2005 pku gold: 104,372 words


def test_a_task_run_twice_leaves_one_score_row(pku: Track, wait_for: Callable[..., None]) -> None:
    base = pku.submissions.get(kind="baseline")
    wait_for(lambda: finished(base.pk), what="BASE to be scored")
    tasks.score_submission.delay(base.pk)
    tasks.score_submission.delay(base.pk)
    Submission.objects.filter(pk=base.pk).update(status=SubmissionStatus.QUEUED)
    tasks.score_submission.delay(base.pk)
    wait_for(lambda: finished(base.pk), what="BASE to be scored again")
    assert Score.objects.filter(submission=base).count() == 1


def test_the_sweep_requeues_a_run_left_by_a_dead_worker(
    pku: Track, wait_for: Callable[..., None], settings: Settings
) -> None:
    top = pku.submissions.get(kind="topline")
    wait_for(lambda: finished(top.pk), what="TOP to be scored")
    # The analysis worker analyses each new score: let it store TOP's analysis before the score
    # goes, or a row it inserts meanwhile would reference a deleted score (seen once in CI).
    wait_for(lambda: RunAnalysis.objects.filter(submission=top).exists(), what="TOP to be analysed")
    Score.objects.filter(submission=top).delete()
    # As a worker killed mid-task leaves it: in scoring, long ago, its lease run out.
    long_ago = timezone.now() - timedelta(seconds=settings.BAKEOFF_STUCK_AFTER_SECONDS + 60)
    Submission.objects.filter(pk=top.pk).update(
        status=SubmissionStatus.SCORING,
        status_changed_at=long_ago,
        attempts=1,
        lease_until=long_ago,
    )
    assert top.pk in services.do_sweep_stuck()
    wait_for(lambda: status_of(top.pk) == SubmissionStatus.SCORED, what="TOP to be re-scored")
    rescored = Score.objects.get(submission=top).f
    assert rescored is not None and rescored > 0.98


def test_web_and_worker_share_only_the_bucket(
    pku: Track,
    media: ObjectStorage,
    web_media: Path,
    worker_media: Path,
    wait_for: Callable[..., None],
) -> None:
    """Files go to S3: neither MEDIA_ROOT holds one, the worker scores from the bucket, and the
    participant downloads the test text through the web process."""
    participant = make_user("pat")
    make_site(Bakeoff.objects.get(slug="prod"), participant, [pku])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=participant).key}")
    run = (ICWB2 / "gold" / "pku_test_gold.utf8").read_bytes()
    answer = client.post(
        "/api/bakeoffs/prod/tracks/pku-closed/submissions/",
        {"file": SimpleUploadedFile("gold-as-run.utf8", run)},
        format="multipart",
    )
    assert answer.status_code == 201, answer.content
    url = answer.json()["url"]
    wait_for(lambda: client.get(url).json()["status"] == "scored", what="the run to be scored")
    assert client.get(url).json()["scores"]["f"] == 1.0

    submission = Submission.objects.get(pk=answer.json()["id"])
    keys = media.keys()
    gold = pku.corpus.current_gold()
    assert gold is not None
    assert submission.file.name in keys
    assert gold.file.name in keys
    assert pku.corpus.test_text.name in keys
    assert not [p for p in web_media.rglob("*") if p.is_file()]
    assert not [p for p in worker_media.rglob("*") if p.is_file()]

    browser = Client()
    browser.force_login(participant)
    download = browser.get(f"/bakeoffs/prod/corpora/{pku.corpus.abbreviation}/download/test_text/")
    assert download.status_code == 200
    body = download.getvalue()
    assert body.decode("utf-8") == pku.corpus.test_text.open("rb").read().decode("utf-8")
    assert len(body.splitlines()) == len(run.splitlines())
