"""What the database itself refuses, whatever Python does."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from bakeoff.models import Bakeoff, Score, Site, Submission, Track
from tests.factories import NOW
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db


def raw_run(t: Track, site: Site, number: int, max_runs: int = 2) -> Submission:
    return Submission.objects.create(
        track=t,
        site=site,
        run_number=number,
        max_runs=max_runs,
        file="runs/x.txt",
        checksum="sha256:x",
        size_bytes=1,
        received_at=NOW,
        status_changed_at=NOW,
    )


def test_the_database_refuses_a_run_number_beyond_the_limit(pk_closed: Track, team: Site) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        raw_run(pk_closed, team, 3)


def test_the_database_refuses_two_runs_with_one_number(pk_closed: Track, team: Site) -> None:
    raw_run(pk_closed, team, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        raw_run(pk_closed, team, 1)


def test_the_database_refuses_a_second_baseline(pk_closed: Track) -> None:
    base = pk_closed.submissions.get(kind="baseline")
    base.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        base.save()


def test_the_database_refuses_two_sites_with_one_code(pinned_bakeoff: Bakeoff, team: Site) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Site.objects.create(
            bakeoff=pinned_bakeoff,
            name="B",
            institution="I",
            country="C",
            commercial_product=False,
            number=team.number,
        )


def test_the_database_refuses_a_second_score_for_one_gold_version(
    pk_closed: Track, team: Site, on_commit: OnCommit
) -> None:
    base = pk_closed.submissions.get(kind="baseline")
    with on_commit():
        from bakeoff import services

        services.do_score_submission(base.pk, now=NOW)
    score = Score.objects.get(submission=base)
    score.pk = None
    score.created_at = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        score.save()
