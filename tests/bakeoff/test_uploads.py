"""Uploading a run: every way it is refused, and the way it is accepted."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from bakeoff import services
from bakeoff.errors import (
    DeadlinePassed,
    InvalidFile,
    NotRegistered,
    NotReleased,
    RunLimitReached,
    UploadTooLarge,
)
from bakeoff.models import Bakeoff, Site, Submission, SubmissionStatus, Track
from tests.factories import (
    NOW,
    PERFECT_RUN,
    RUNS,
    SPLIT_RUN,
    make_corpus,
    make_site,
    make_user,
    track,
)

pytestmark = pytest.mark.django_db


def submit(user: User, t: Track, data: bytes, now: datetime = NOW) -> Submission:
    return services.submit_run(user, t, data, original_name="run.txt", now=now)


def test_it_accepts_a_run_and_queues_it(participant: User, pk_closed: Track, team: Site) -> None:
    submission = submit(participant, pk_closed, PERFECT_RUN.encode())
    assert submission.status == SubmissionStatus.QUEUED
    assert submission.site == team
    assert submission.run_number == 1
    assert submission.received_at == NOW
    assert submission.checksum.startswith("sha256:")
    assert submission.file.read().decode() == PERFECT_RUN


def test_it_rejects_late_upload(
    participant: User, pk_closed: Track, team: Site, pinned_bakeoff: Bakeoff
) -> None:
    late = pinned_bakeoff.submission_deadline + timedelta(seconds=1)
    with pytest.raises(DeadlinePassed) as refusal:
        submit(participant, pk_closed, PERFECT_RUN.encode(), now=late)
    assert "UTC" in refusal.value.detail
    assert not Submission.objects.filter(kind="run").exists()


def test_it_accepts_upload_at_the_deadline_instant(
    participant: User, pk_closed: Track, team: Site, pinned_bakeoff: Bakeoff
) -> None:
    submission = submit(
        participant, pk_closed, PERFECT_RUN.encode(), now=pinned_bakeoff.submission_deadline
    )
    assert submission.pk


def test_it_rejects_upload_before_test_release(
    participant: User, pk_closed: Track, team: Site, pinned_bakeoff: Bakeoff
) -> None:
    early = pinned_bakeoff.test_released - timedelta(minutes=1)
    with pytest.raises(NotReleased):
        submit(participant, pk_closed, PERFECT_RUN.encode(), now=early)


def test_it_rejects_wrong_encoding(participant: User, pk_closed: Track, team: Site) -> None:
    with pytest.raises(InvalidFile) as refusal:
        submit(participant, pk_closed, PERFECT_RUN.encode("gb18030"))
    assert refusal.value.fields["line"] == 1
    assert "utf-8" in refusal.value.detail
    assert refusal.value.fields["decodes_as"] == "gb18030"  # the API gives the guess as a fact


def test_a_file_in_no_usual_encoding_gets_no_guess(
    participant: User, pk_closed: Track, team: Site
) -> None:
    with pytest.raises(InvalidFile) as refusal:
        submit(participant, pk_closed, b"\xff\xfe\xfa\n" * 3)
    assert "decodes_as" not in refusal.value.fields
    assert "It decodes as" not in str(refusal.value.message)


def test_it_rejects_dropped_line(participant: User, pk_closed: Track, team: Site) -> None:
    dropped = "".join(PERFECT_RUN.splitlines(keepends=True)[:2])
    with pytest.raises(InvalidFile) as refusal:
        submit(participant, pk_closed, dropped.encode())
    assert refusal.value.fields["line"] == 3


def test_it_rejects_changed_character_naming_line_and_column(
    participant: User, pk_closed: Track, team: Site
) -> None:
    changed = PERFECT_RUN.replace("北京", "南京")
    with pytest.raises(InvalidFile) as refusal:
        submit(participant, pk_closed, changed.encode())
    fields = refusal.value.to_dict()
    assert (fields["line"], fields["column"], fields["expected"], fields["found"]) == (
        2,
        4,
        "北",
        "南",
    )


def test_it_rejects_track_not_registered(
    participant: User, pinned_bakeoff: Bakeoff, pk_closed: Track, team: Site
) -> None:
    open_track = track(pk_closed.corpus, "open")
    with pytest.raises(NotRegistered):
        submit(participant, open_track, PERFECT_RUN.encode())


def test_it_rejects_registration_not_yet_approved(
    pinned_bakeoff: Bakeoff, pk_closed: Track
) -> None:
    waiting = make_user("wendy")
    make_site(pinned_bakeoff, waiting, [pk_closed], name="Waiting", approved=False)
    with pytest.raises(NotRegistered):
        submit(waiting, pk_closed, PERFECT_RUN.encode())


def test_it_rejects_outsider(outsider: User, pk_closed: Track, team: Site) -> None:
    with pytest.raises(NotRegistered):
        submit(outsider, pk_closed, PERFECT_RUN.encode())


def test_it_rejects_a_run_beyond_the_limit(participant: User, pk_closed: Track, team: Site) -> None:
    for text in RUNS[: pk_closed.max_runs]:
        submit(participant, pk_closed, text.encode())
    with pytest.raises(RunLimitReached):
        submit(participant, pk_closed, SPLIT_RUN.encode())
    assert team.submissions.count() == pk_closed.max_runs


def test_it_numbers_runs_per_site(participant: User, pk_closed: Track, team: Site) -> None:
    numbers = [submit(participant, pk_closed, text.encode()).run_number for text in RUNS[:2]]
    assert numbers == [1, 2]


def test_it_rejects_an_upload_over_the_size_cap(
    participant: User, pk_closed: Track, team: Site, settings: Settings
) -> None:
    settings.BAKEOFF_MAX_UPLOAD_BYTES = 10
    with pytest.raises(UploadTooLarge):
        submit(participant, pk_closed, PERFECT_RUN.encode())


def test_it_reads_runs_in_the_corpus_encoding(pinned_bakeoff: Bakeoff, participant: User) -> None:
    corpus = make_corpus(
        pinned_bakeoff,
        abbreviation="AS",
        encoding="big5hkscs",
        now=NOW,
        gold="我們 在 台北\n",
        test="我們在台北\n",
        words="我們\n",
    )
    t = track(corpus)
    make_site(pinned_bakeoff, participant, [t])
    submission = submit(participant, t, "我們 在 台北\n".encode("big5hkscs"))
    assert submission.file.read().decode("utf-8") == "我們 在 台北\n"
