"""The mail framework: every mail recorded and sent after the commit by a task, retried on SMTP
errors without failing the request, listed for the organiser; optional mails can be turned off
on the account page or by the link they carry."""

from __future__ import annotations

import html
import re
import socket

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.test import Client
from pytest_django import Settings

from bakeoff.models import Bakeoff
from notifications import mail
from notifications.kinds import KINDS
from notifications.models import Mail, MailPreference
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the probe is closed


def with_email(user: User, address: str) -> User:
    user.email = address
    user.save()
    return user


def test_a_mail_is_recorded_and_sent_after_the_commit(
    bakeoff: Bakeoff, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    with_email(participant, "pat@example.org")
    with on_commit():
        record = mail.queue_mail(
            "data_released",
            participant,
            template="data_released",
            bakeoff=bakeoff,
            context={"data": "training", "corpora": []},
        )
        assert record is not None and record.status == "queued"
        assert mailoutbox == []  # nothing leaves before the commit
    record.refresh_from_db()
    assert record.status == "sent" and record.sent_at is not None and record.attempts == 1
    (message,) = mailoutbox
    assert message.to == ["pat@example.org"]
    assert message.subject.startswith("[Bakeoff 2026] ")
    assert isinstance(message, EmailMultiAlternatives)
    assert message.alternatives and message.alternatives[0][1] == "text/html"


def test_a_key_makes_a_mail_once_per_recipient(
    bakeoff: Bakeoff, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    with_email(participant, "pat@example.org")
    context = {"data": "training", "corpora": []}
    with on_commit():
        for _ in range(2):
            mail.queue_mail(
                "data_released",
                participant,
                template="data_released",
                bakeoff=bakeoff,
                context=context,
                key="released:1",
            )
    assert Mail.objects.count() == 1 and len(mailoutbox) == 1


def test_no_address_no_mail(bakeoff: Bakeoff, participant: User, on_commit: OnCommit) -> None:
    assert mail.queue_mail("data_released", participant, template="data_released") is None
    assert not Mail.objects.exists()


def test_an_smtp_error_is_retried_then_recorded_and_the_request_succeeds(
    settings: Settings, anonymous: Client, on_commit: OnCommit
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", closed_port(), 2
    User.objects.create_user("lin", "lin@example.org", "a long enough pass 1")
    with on_commit():
        answer = anonymous.post("/accounts/password/reset/", {"email": "lin@example.org"})
    assert answer.status_code == 302  # the request never fails for the mail
    record = Mail.objects.get()
    assert record.status == "failed"
    assert record.attempts == 6  # the first try and five retries
    assert "ConnectionRefusedError" in record.error


def test_account_mails_are_recorded_without_their_keys(
    anonymous: Client, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    User.objects.create_user("lin", "lin@example.org", "a long enough pass 1")
    with on_commit():
        anonymous.post("/accounts/password/reset/", {"email": "lin@example.org"})
    record = Mail.objects.get()
    assert record.kind == "account" and record.status == "sent"
    assert record.recipient == User.objects.get(username="lin")
    assert "/accounts/password/reset/key/" in mailoutbox[0].body
    assert record.text == "" and record.html == ""  # the reset link is not kept


def test_the_organiser_lists_the_mail_of_the_bakeoff(
    bakeoff: Bakeoff, organiser: User, participant: User, client_for: ClientFor, on_commit: OnCommit
) -> None:
    with_email(participant, "pat@example.org")
    with on_commit():
        mail.queue_mail(
            "data_released",
            participant,
            template="data_released",
            bakeoff=bakeoff,
            context={"data": "test", "corpora": []},
        )
    page = client_for(organiser).get("/bakeoffs/b2026/mail/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "pat@example.org" in text and "Data released" in text and "Sent" in text
    assert "/bakeoffs/b2026/mail/" in client_for(organiser).get("/bakeoffs/b2026/").content.decode()


def test_only_organisers_see_the_mail_list(
    bakeoff: Bakeoff, participant: User, client_for: ClientFor, anonymous: Client
) -> None:
    assert client_for(participant).get("/bakeoffs/b2026/mail/").status_code == 404
    assert anonymous.get("/bakeoffs/b2026/mail/").status_code == 302


def _unsubscribe_path(message: EmailMessage) -> str:
    found = re.search(r"https?://[^/\s]+(/mail/unsubscribe/[^\s]+/)", str(message.body))
    assert found is not None, message.body
    return found.group(1)


def _announce(bakeoff: Bakeoff, user: User, on_commit: OnCommit) -> Mail | None:
    with on_commit():
        return mail.queue_mail(
            "announcement",
            user,
            template="announcement",
            bakeoff=bakeoff,
            context={"announcement": {"subject": "News", "text": "Hello"}},
        )


def test_an_optional_mail_carries_a_one_click_link_that_turns_it_off(
    bakeoff: Bakeoff,
    participant: User,
    anonymous: Client,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with_email(participant, "pat@example.org")
    _announce(bakeoff, participant, on_commit)
    (message,) = mailoutbox
    path = _unsubscribe_path(message)
    assert message.extra_headers["List-Unsubscribe"].endswith(path + ">")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Opening the link asks first (link checkers must not unsubscribe anyone)...
    assert "Stop these mails" in anonymous.get(path).content.decode()
    assert not MailPreference.objects.exists()
    # ...and the mail program's one-click POST turns the announcements off.
    assert anonymous.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    preferences = MailPreference.objects.get(user=participant)
    assert not preferences.announcements and preferences.reminders and preferences.scored
    assert _announce(bakeoff, participant, on_commit) is None
    assert len(mailoutbox) == 1


def test_an_unsubscribe_link_for_another_user_changes_nothing(
    bakeoff: Bakeoff,
    participant: User,
    outsider: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with_email(participant, "pat@example.org")
    _announce(bakeoff, participant, on_commit)
    answer = client_for(outsider).post(_unsubscribe_path(mailoutbox[0]))
    assert answer.status_code == 403
    assert "another account" in answer.content.decode()
    assert not MailPreference.objects.exists()


def test_a_forged_unsubscribe_link_changes_nothing(participant: User, anonymous: Client) -> None:
    token = mail.unsubscribe_token(participant, "announcements")
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    answer = anonymous.post(f"/mail/unsubscribe/{forged}/")
    assert answer.status_code == 400 and "not valid" in answer.content.decode()
    assert not MailPreference.objects.exists()


def test_receipts_carry_no_unsubscribe_link(
    bakeoff: Bakeoff, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    with_email(participant, "pat@example.org")
    MailPreference.objects.create(
        user=participant, reminders=False, scored=False, announcements=False
    )
    with on_commit():
        mail.queue_mail(
            "data_released",
            participant,
            template="data_released",
            bakeoff=bakeoff,
            context={"data": "test", "corpora": []},
        )
    (message,) = mailoutbox
    assert "unsubscribe" not in message.body and "List-Unsubscribe" not in message.extra_headers


def test_the_account_page_turns_optional_mails_off(
    participant: User, client_for: ClientFor
) -> None:
    client = client_for(participant)
    page = client.get("/account/").content.decode()
    assert "Deadline reminders" in page and "Announcements of the organisers" in page
    answer = client.post("/account/mail/", {"scored": "on", "announcements": "on"})
    assert answer.status_code == 302
    preferences = MailPreference.objects.get(user=participant)
    assert (preferences.reminders, preferences.scored, preferences.announcements) == (
        False,
        True,
        True,
    )


def test_the_account_page_names_every_mail_that_is_always_sent(
    participant: User, client_for: ClientFor
) -> None:
    """The list comes from the kinds: a new mail that cannot be turned off (a timetable change,
    say) is named there without anyone editing the page."""
    page = client_for(participant).get("/account/").content.decode()
    always = page.split('id="mail-always-sent">')[1].split("</ul>")[0]
    listed = set(re.findall(r"<li>(.*?)</li>", always))
    expected = {str(kind.label) for kind in KINDS.values() if not kind.preference}
    assert "Timetable changed" in expected
    assert listed == {html.escape(label) for label in expected}
