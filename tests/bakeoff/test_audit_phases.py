"""Every upload of every phase is in the audit trail, accepted or refused, and so is every
withdrawal: a development or post-bakeoff run is as traceable as a test run."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from bakeoff import audit, services
from bakeoff.errors import InvalidFile, NotReleased, Refused, RunLimitReached
from bakeoff.models import (
    AuditEntry,
    Bakeoff,
    Corpus,
    Site,
    Submission,
    SubmissionPhase,
    Track,
)
from bakeoff.services import uploads
from bakeoff.services.development import do_add_development_set
from tests.factories import NEAR_PERFECT_RUN, PERFECT_RUN, publish

pytestmark = pytest.mark.django_db

DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUN = "我们 在 上海 学 习\n明天 天气 很 好\n"
DEVELOPMENT = SubmissionPhase.DEVELOPMENT
POST_BAKEOFF = SubmissionPhase.POST_BAKEOFF


@pytest.fixture
def dev_corpus(corpus: Corpus) -> Corpus:
    do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())
    return corpus


def send(user: User, track: Track, text: str, phase: str) -> Submission:
    return services.submit_run(user, track, text.encode(), phase=phase, original_name="run.txt")


def only(action: str) -> AuditEntry:
    return AuditEntry.objects.get(action=action)


def test_an_accepted_development_run_is_recorded(
    dev_corpus: Corpus, closed: Track, site: Site, participant: User
) -> None:
    run = send(participant, closed, DEV_RUN, DEVELOPMENT)
    entry = only(audit.RUN_ACCEPTED)
    assert (entry.actor, entry.track, entry.site) == (participant, closed, site)
    assert entry.details["phase"] == "development"
    assert entry.details["submission"] == run.pk
    assert entry.details["run_number"] == 1
    assert entry.details["checksum"] == uploads.checksum(DEV_RUN.encode())
    assert entry.details["size_bytes"] == len(DEV_RUN.encode())
    assert entry.details["original_name"] == "run.txt"
    assert "(development)" in entry.subject


def test_a_development_run_refused_as_invalid_is_recorded_with_its_checksum(
    dev_corpus: Corpus, closed: Track, site: Site, participant: User
) -> None:
    with pytest.raises(InvalidFile):
        send(participant, closed, PERFECT_RUN, DEVELOPMENT)  # a run of the test text
    entry = only(audit.RUN_REFUSED)
    assert entry.details["phase"] == "development"
    assert entry.details["rule"] == "validation"
    assert entry.details["checksum"] == uploads.checksum(PERFECT_RUN.encode())
    assert "(development)" in entry.subject and entry.site == site


def test_a_development_run_over_the_daily_limit_is_recorded(
    dev_corpus: Corpus, bakeoff: Bakeoff, closed: Track, site: Site, participant: User
) -> None:
    bakeoff.development_runs_per_day = 1
    bakeoff.save()
    send(participant, closed, DEV_RUN, DEVELOPMENT)
    with pytest.raises(RunLimitReached):
        send(participant, closed, DEV_GOLD, DEVELOPMENT)
    entry = only(audit.RUN_REFUSED)
    assert (entry.details["phase"], entry.details["rule"]) == ("development", "limit")
    assert entry.details["checksum"] == uploads.checksum(DEV_GOLD.encode())


def test_a_development_run_refused_before_it_is_read_is_recorded_with_its_checksum(
    corpus: Corpus, closed: Track, site: Site, participant: User
) -> None:
    with pytest.raises(NotReleased):  # the corpus has no development set
        send(participant, closed, DEV_RUN, DEVELOPMENT)
    entry = only(audit.RUN_REFUSED)
    assert (entry.details["phase"], entry.details["rule"]) == ("development", "not_released")
    assert entry.details["checksum"] == uploads.checksum(DEV_RUN.encode())


def test_a_development_run_after_the_deadline_is_recorded(
    dev_corpus: Corpus, bakeoff: Bakeoff, closed: Track, site: Site, participant: User
) -> None:
    late = bakeoff.submission_deadline + timedelta(seconds=1)
    with pytest.raises(Refused):
        services.submit_run(participant, closed, DEV_RUN.encode(), phase=DEVELOPMENT, now=late)
    entry = only(audit.RUN_REFUSED)
    assert entry.details["phase"] == "development"
    assert entry.details["checksum"] == uploads.checksum(DEV_RUN.encode())
    assert entry.at == late


def test_a_strangers_development_upload_leaves_no_entry(
    dev_corpus: Corpus, closed: Track, site: Site, outsider: User
) -> None:
    with pytest.raises(Refused):
        send(outsider, closed, DEV_RUN, DEVELOPMENT)
    assert not AuditEntry.objects.filter(action=audit.RUN_REFUSED).exists()


def test_post_bakeoff_uploads_are_recorded_accepted_and_refused(
    bakeoff: Bakeoff, closed: Track, site: Site, participant: User
) -> None:
    publish(bakeoff)
    with pytest.raises(NotReleased):  # the track is not open for post-bakeoff runs
        send(participant, closed, NEAR_PERFECT_RUN, POST_BAKEOFF)
    refused = only(audit.RUN_REFUSED)
    assert (refused.details["phase"], refused.details["rule"]) == ("post_bakeoff", "not_released")
    assert refused.details["checksum"] == uploads.checksum(NEAR_PERFECT_RUN.encode())
    assert "(post-bakeoff)" in refused.subject

    services.do_open_post_bakeoff(closed)
    run = send(participant, closed, NEAR_PERFECT_RUN, POST_BAKEOFF)
    accepted = only(audit.RUN_ACCEPTED)
    assert accepted.details["phase"] == "post_bakeoff"
    assert accepted.details["submission"] == run.pk
    assert accepted.details["checksum"] == run.checksum

    with pytest.raises(InvalidFile):
        send(participant, closed, "我们\n", POST_BAKEOFF)
    invalid = AuditEntry.objects.filter(action=audit.RUN_REFUSED).latest("pk")
    assert (invalid.details["phase"], invalid.details["rule"]) == ("post_bakeoff", "validation")


def test_a_test_run_entry_names_its_phase(closed: Track, site: Site, participant: User) -> None:
    services.submit_run(participant, closed, PERFECT_RUN.encode())
    assert only(audit.RUN_ACCEPTED).details["phase"] == "test"


def test_withdrawing_a_development_run_is_recorded(
    dev_corpus: Corpus, closed: Track, site: Site, participant: User
) -> None:
    run = send(participant, closed, DEV_RUN, DEVELOPMENT)
    services.do_withdraw_run(run, user=participant, reason="a bug in our tokenizer")
    entry = only(audit.RUN_WITHDRAWN)
    assert entry.details["phase"] == "development"
    assert entry.details["submission"] == run.pk
    assert entry.details["reason"] == "a bug in our tokenizer"
    assert entry.actor == participant
