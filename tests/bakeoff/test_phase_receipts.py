"""Receipts and mails name the run's phase and the limit it counts against, and keep their
promises (docs/phases.md): a development run's receipt is not an official run's, its score mail
comes and says what it was scored against, and its size refusal names the development text."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage

from bakeoff import services
from bakeoff.errors import InvalidFile
from bakeoff.models import (
    Bakeoff,
    Corpus,
    DevelopmentSet,
    ReaderSettings,
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
    assert "of 5" not in text and "of 3" not in text


def test_a_development_receipt_page_says_first_what_the_run_is_and_shows_its_figures(
    client_for: ClientFor, dev_run: Submission, addressed: User
) -> None:
    text = client_for(addressed).get(f"/bakeoffs/b2026/submissions/{dev_run.pk}/").content.decode()
    main = text[text.index("<h1>") :]
    standing = main.index("not official and never ranked: scored against the development set")
    assert standing < main.index("<table")  # the page's first words after its title
    # its figures, against the development set's gold, and the table that shows them
    figures = main[main.index("Scores against the development set") :]
    score = dev_run.development_score
    assert f"<strong>{score.f:.3f}</strong>" in figures
    assert "The development set's gold." in figures and "Gold version" not in figures
    assert "/bakeoffs/b2026/tracks/pk-closed/development/" in figures
    assert "/bakeoffs/b2026/tracks/pk-closed/runs/" not in figures  # no place in the official table


@pytest.mark.parametrize(
    ("language", "standing"),
    [
        ("zh-hans", "开发结果，非正式，从不排名：按开发集的标准答案评分"),
        ("zh-hant", "開發結果，非正式，從不排名：按開發集的標準答案評分"),
    ],
)
def test_a_development_receipt_page_says_so_in_the_readers_language(
    client_for: ClientFor, dev_run: Submission, addressed: User, language: str, standing: str
) -> None:
    client = client_for(addressed)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    text = client.get(f"/bakeoffs/b2026/submissions/{dev_run.pk}/").content.decode()
    assert standing in text[text.index("<h1>") : text.index("<table")]


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
    assert "An official run: ranked in the track&#x27;s table" in text
    assert "development set" not in text


def test_a_development_receipt_mail_names_the_phase_and_the_daily_limit(
    dev_run: Submission, mailoutbox: list[EmailMessage]
) -> None:
    receipt = mail(mailoutbox, "Receipt: PKc development run 1 received")
    body = str(receipt.body)
    assert "Phase:        Development" in body
    assert "Run number:   development run 1; 5 development runs per day" in body
    assert "of 5" not in body and "of 3" not in body
    # the receipt promises a mail once the run is scored ...
    assert "you will get a mail once it is scored" in body


def test_a_development_receipt_mail_says_first_that_the_run_is_not_ranked(
    dev_run: Submission, mailoutbox: list[EmailMessage]
) -> None:
    receipt = mail(mailoutbox, "Receipt: PKc development run 1 received")
    first = str(receipt.body).splitlines()[0]
    assert first.startswith("Your development run 1 was received. A development run")
    assert "never ranked" in first and "development set's gold" in first
    # the deadline it names is the end of the development phase, said so
    [deadline] = [line for line in str(receipt.body).splitlines() if line.startswith("Deadline:")]
    assert deadline.endswith("(the development phase ends then)")
    [html] = [body for body, kind in receipt.alternatives if kind == "text/html"]  # type: ignore[attr-defined]
    shown = str(html)
    assert "<strong>Your development run 1 was received. A development run, not official" in shown


@pytest.mark.parametrize(
    ("language", "first"),
    [
        ("zh-hans", "您的第 1 组开发结果已收到。开发结果，非正式，从不排名"),
        ("zh-hant", "您的第 1 組開發結果已收到。開發結果，非正式，從不排名"),
    ],
)
def test_a_development_receipt_mail_says_so_in_the_readers_language(
    three_test_runs_five_development_runs: None,
    dev_set: DevelopmentSet,
    addressed: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
    language: str,
    first: str,
) -> None:
    ReaderSettings.objects.create(user=addressed, language=language)
    with on_commit():
        services.submit_run(addressed, closed, DEV_RUN.encode(), phase=SubmissionPhase.DEVELOPMENT)
    [receipt] = [m for m in mailoutbox if "PKc" in m.subject and "回" in m.subject]
    assert str(receipt.body).startswith(first)
    assert "Keep this mail" not in str(receipt.body) and "development" not in str(receipt.body)


def test_a_test_receipt_mail_names_the_deadline_without_a_note(
    three_test_runs_five_development_runs: None,
    addressed: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with on_commit():
        services.submit_run(addressed, closed, PERFECT_RUN.encode())
    body = str(mail(mailoutbox, "Receipt: PKc run 1 received").body)
    assert body.startswith("Your run 1 was received. An official run: ranked in the track's table")
    [deadline] = [line for line in body.splitlines() if line.startswith("Deadline:")]
    assert deadline.endswith("UTC")


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
    assert receipt.startswith(
        "Your post-bakeoff run 1 was received. A post-bakeoff run, unofficial"
    )
    assert "Deadline" not in receipt  # no deadline bounds post-bakeoff runs
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
