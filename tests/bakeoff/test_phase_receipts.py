"""Receipts and mails name the run's phase and the limit it counts against, and keep their
promises (docs/phases.md): a development run's receipt is not an official run's, its score mail
comes and says what it was scored against, and its size refusal names the development text."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage

from bakeoff import services
from bakeoff.errors import InvalidFile
from bakeoff.models import (
    Bakeoff,
    Corpus,
    DevelopmentSet,
    Site,
    Submission,
    SubmissionPhase,
    SubmissionStatus,
    Track,
)
from tests.factories import NEAR_PERFECT_RUN, PERFECT_RUN, publish
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUN = "我们 在 上海 学 习\n明天 天气 很 好\n"


@pytest.fixture
def addressed(participant: User) -> User:
    participant.email = "pat@example.org"
    participant.save()
    return participant


@pytest.fixture
def three_test_runs_five_development_runs(bakeoff: Bakeoff, closed: Track) -> None:
    """The finding's track: 3 test runs per site, 5 development runs per day."""
    Track.objects.filter(pk=closed.pk).update(max_runs=3)
    closed.refresh_from_db()
    bakeoff.development_runs_per_day = 5
    bakeoff.save()


@pytest.fixture
def dev_set(corpus: Corpus) -> DevelopmentSet:
    return services.do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())


@pytest.fixture
def dev_run(
    dev_set: DevelopmentSet,
    three_test_runs_five_development_runs: None,
    addressed: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
) -> Submission:
    with on_commit():
        run = services.submit_run(
            addressed, closed, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT
        )
    run.refresh_from_db()
    assert run.status == SubmissionStatus.SCORED, run.reason
    return run


def mail(mailoutbox: list[EmailMessage], subject: str) -> EmailMessage:
    [message] = [m for m in mailoutbox if subject in m.subject]
    return message


def test_a_development_receipt_page_names_the_phase_and_the_daily_limit(
    client_for: ClientFor, dev_run: Submission, addressed: User
) -> None:
    page = client_for(addressed).get(f"/bakeoffs/b2026/submissions/{dev_run.pk}/")
    text = page.content.decode()
    assert "Development: development run 1; 5 development runs per day." in text
    assert "scored against the development set" in text and "not official" in text
    assert "of 5" not in text and "of 3" not in text


def test_a_test_receipt_page_names_the_track_limit(
    client_for: ClientFor,
    three_test_runs_five_development_runs: None,
    addressed: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    with on_commit():
        run = services.submit_run(addressed, closed, PERFECT_RUN.encode())
    text = client_for(addressed).get(f"/bakeoffs/b2026/submissions/{run.pk}/").content.decode()
    assert "Test (official): 1 of 3." in text


def test_a_development_receipt_mail_names_the_phase_and_the_daily_limit(
    dev_run: Submission, mailoutbox: list[EmailMessage]
) -> None:
    receipt = mail(mailoutbox, "Receipt: PKc development run 1 received")
    body = str(receipt.body)
    assert "Phase:        Development" in body
    assert "Run number:   development run 1; 5 development runs per day" in body
    assert "of 5" not in body and "of 3" not in body
    assert "not official" in body
    # the receipt promises a mail once the run is scored ...
    assert "you will get a mail once it is scored" in body


def test_a_development_run_gets_the_score_mail_its_receipt_promised(
    dev_run: Submission, mailoutbox: list[EmailMessage]
) -> None:
    scored = mail(mailoutbox, "PKc development run 1 scored: F = 0.824")
    body = str(scored.body)
    assert "Your development run 1 of PKc was scored against the development set." in body
    assert "not official" in body and "never in the official results" in body
    assert "gold version" not in body
    assert "(7 of 8 gold words found; 9 words in the run)" in body
    assert scored.to == ["pat@example.org"]


def test_a_development_score_mail_is_sent_once_per_score(
    dev_run: Submission, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    with on_commit():
        services.do_score_submission(dev_run.pk)  # scored already: nothing to do
    assert len([m for m in mailoutbox if "scored" in m.subject]) == 1


def test_a_post_bakeoff_score_mail_says_the_run_is_unofficial(
    bakeoff: Bakeoff,
    addressed: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    publish(bakeoff)
    Track.objects.filter(pk=closed.pk).update(post_bakeoff_open=True)
    closed.refresh_from_db()
    with on_commit():
        services.submit_run(
            addressed, closed, NEAR_PERFECT_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )
    receipt = str(mail(mailoutbox, "Receipt: PKc post-bakeoff run 1 received").body)
    limit = bakeoff.post_bakeoff_runs_per_day
    assert f"post-bakeoff run 1; {limit} post-bakeoff runs per day" in receipt
    body = str(mail(mailoutbox, "PKc post-bakeoff run 1 scored").body)
    assert "Your post-bakeoff run 1 of PKc was scored against gold version 1." in body
    assert "unofficial" in body and "never ranked among the official runs" in body


def test_a_development_runs_size_refusal_names_the_development_text(
    dev_set: DevelopmentSet, participant: User, site: Site, closed: Track
) -> None:
    too_large = ("我们 在 上海 学习\n" * 2000).encode()
    size = dev_set.text.size
    with pytest.raises(InvalidFile) as refused:
        services.submit_run(participant, closed, too_large, phase=SubmissionPhase.DEVELOPMENT)
    assert f"this track's development text ({size:,} bytes)" in refused.value.detail
    assert "test text" not in refused.value.detail
    assert refused.value.fields["test_text_bytes"] == size


def test_a_test_runs_size_refusal_names_the_test_text(
    participant: User, site: Site, closed: Track
) -> None:
    too_large = ("我们 在 上海 学习\n" * 2000).encode()
    with pytest.raises(InvalidFile) as refused:
        services.submit_run(participant, closed, too_large)
    assert "this track's test text" in refused.value.detail
