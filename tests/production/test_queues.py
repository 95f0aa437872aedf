"""Separate queues on real workers: a committee training on the committee worker does not delay
the scoring of a run uploaded meanwhile."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff import services
from bakeoff.demo_corpus import build_demo_corpus
from bakeoff.models import Bakeoff, Submission, SubmissionStatus, Track
from psychometric.models import Committee, CommitteeMember, CommitteeStatus, MemberStatus
from psychometric.services import do_start_committee
from tests.factories import make_site, make_user

from .conftest import ICWB2
from .test_worker import finished, pku  # noqa: F401  (the PKU track fixture)

pytestmark = [
    pytest.mark.production,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("icwb2_data"),
]


def test_a_run_is_scored_within_10_s_while_a_committee_occupies_its_worker(
    pku: Track,  # noqa: F811
    wait_for: Callable[..., None],
) -> None:
    for submission in pku.submissions.all():
        wait_for(lambda s=submission: finished(s.pk), what=f"{submission} to be scored")
    bakeoff = Bakeoff.objects.get(slug="prod")
    demo = build_demo_corpus()  # People's Daily: 17,536 training sentences for the CRF members
    corpus = services.do_create_corpus(
        bakeoff,
        services.CorpusFiles(
            gold=demo.gold_text.encode(),
            test_text=demo.test_text.encode(),
            training_text=demo.training_text.encode(),
        ),
        name="People's Daily",
        abbreviation="PD",
        institution="Peking University",
        conditions=("closed",),
    )
    committee = do_start_committee(corpus, kind="crf", k=2, max_iterations=5)
    wait_for(
        lambda: CommitteeMember.objects.filter(
            committee=committee, status=MemberStatus.RUNNING
        ).exists(),
        what="a committee member to be training",
    )

    participant = make_user("pat")
    make_site(bakeoff, participant, [pku])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=participant).key}")
    run = (ICWB2 / "gold" / "pku_test_gold.utf8").read_bytes()
    started = time.monotonic()
    answer = client.post(
        "/api/bakeoffs/prod/tracks/pku-closed/submissions/",
        {"file": SimpleUploadedFile("run.utf8", run)},
        format="multipart",
    )
    assert answer.status_code == 201, answer.content
    pk = answer.json()["id"]
    wait_for(
        lambda: Submission.objects.get(pk=pk).status == SubmissionStatus.SCORED,
        timeout=10,
        what="the run to be scored within 10 s",
    )
    took = time.monotonic() - started
    # The committee was still training all along: the scoring worker never waited for it.
    assert Committee.objects.get(pk=committee.pk).status == CommitteeStatus.RUNNING
    print(f"run scored {took:.1f} s after its upload, beside a committee in training")

    wait_for(
        lambda: Committee.objects.get(pk=committee.pk).status == CommitteeStatus.COMPLETE,
        timeout=300,
        what="the committee to be complete",
    )
    members = CommitteeMember.objects.filter(committee=committee)
    assert [(m.number, m.status, m.attempts) for m in members] == [(1, "done", 1), (2, "done", 1)]
