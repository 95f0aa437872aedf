"""Mail in the language a reader reads the pages in, even if they never chose one: the language of
the page they last logged in on (their browser's Accept-Language, or the cookie of the language
menu) is kept, and a language chosen while logged in wins over it. Logins are made through the
real login page (allauth), mails by uploading a real run."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import login
from django.contrib.auth.models import User
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail import EmailMessage
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff.middleware import ReaderMiddleware
from bakeoff.models import ReaderSettings, Site
from tests.factories import PERFECT_RUN
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough pass 1"
UPLOAD = "/bakeoffs/b2026/tracks/pk-closed/upload/"
API_UPLOAD = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/"
# The receipt's first words, in each language.
RECEIPT = {
    "en": ("Receipt: PKc run", "Your run 1 was received."),
    "zh-hans": ("回执：已收到 PKc", "您的第 1 组结果已收到。"),
    "zh-hant": ("回執：已收到 PKc", "您的第 1 組結果已收到。"),
}


@pytest.fixture
def reader(participant: User, site: Site) -> User:
    """Pat, a member of an approved site, with an address and a password to log in with."""
    participant.email = "pat@example.org"
    participant.set_password(PASSWORD)
    participant.save()
    EmailAddress.objects.create(user=participant, email=participant.email, verified=True)
    return participant


def log_in(client: Client, user: User, accept_language: str = "") -> None:
    headers = {"accept-language": accept_language} if accept_language else {}
    answer = client.post(
        "/accounts/login/", {"login": user.username, "password": PASSWORD}, headers=headers
    )
    assert answer.status_code == 302, answer.content.decode()
    assert client.session["_auth_user_id"] == str(user.pk)


def receipt_language(
    client: Client, user: User, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> str:
    """Upload a run through the page; the language of the receipt mailed to ``user``."""
    with on_commit():
        answer = client.post(UPLOAD, {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())})
    assert answer.status_code == 302
    return language_of_receipt(user, mailoutbox)


def language_of_receipt(user: User, mailoutbox: list[EmailMessage]) -> str:
    mine = [m for m in mailoutbox if m.to == [user.email]]
    found = [
        language
        for m in mine
        for language, (subject, body) in RECEIPT.items()
        if subject in m.subject and body in str(m.body)
    ]
    assert len(found) == 1, [m.subject for m in mine]
    return found[0]


@pytest.mark.parametrize(
    ("accept_language", "language"),
    [("zh-Hans", "zh-hans"), ("zh-CN,zh;q=0.9", "zh-hans"), ("zh-TW", "zh-hant"), ("en", "en")],
)
def test_mail_is_in_the_language_of_the_pages_at_login(
    reader: User,
    mailoutbox: list[EmailMessage],
    on_commit: OnCommit,
    accept_language: str,
    language: str,
) -> None:
    client = Client()
    log_in(client, reader, accept_language)
    assert receipt_language(client, reader, mailoutbox, on_commit) == language
    remembered = ReaderSettings.objects.get(user=reader)
    assert (remembered.language, remembered.pages_language) == ("", language)


def test_the_menus_cookie_before_login_counts_as_the_pages_language(
    reader: User, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    client = Client()
    client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    log_in(client, reader, "en")
    assert receipt_language(client, reader, mailoutbox, on_commit) == "zh-hant"
    assert ReaderSettings.objects.get(user=reader).language == ""  # remembered, not chosen


def test_a_chosen_language_wins_over_the_language_at_login(
    reader: User, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    first = Client()
    log_in(first, reader, "en")
    first.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})  # chosen, logged in
    first.post("/accounts/logout/")
    elsewhere = Client()
    log_in(elsewhere, reader, "zh-Hans")
    assert ReaderSettings.objects.get(user=reader).pages_language == "zh-hans"
    assert receipt_language(elsewhere, reader, mailoutbox, on_commit) == "zh-hant"


def test_the_last_login_counts(
    reader: User, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    log_in(Client(), reader, "zh-Hans")
    in_english = Client()
    log_in(in_english, reader, "en-GB,en")
    assert receipt_language(in_english, reader, mailoutbox, on_commit) == "en"


def test_the_api_in_english_leaves_the_remembered_language_alone(
    reader: User, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    log_in(Client(), reader, "zh-Hans")
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=reader).key}")
    with on_commit():
        answer = script.post(
            API_UPLOAD,
            {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())},
            headers={"accept-language": "en"},
        )
    assert answer.status_code == 201, answer.content.decode()
    assert language_of_receipt(reader, mailoutbox) == "zh-hans"
    assert ReaderSettings.objects.get(user=reader).pages_language == "zh-hans"


def test_a_login_on_the_apis_path_is_not_taken_for_the_pages_language(reader: User) -> None:
    """The API is English whatever the reader asks; no API view logs in today (tokens do not),
    but one that did must not make the reader's mail English."""
    log_in(Client(), reader, "zh-Hans")

    def logs_in(request: HttpRequest) -> HttpResponse:
        login(request, reader, backend="django.contrib.auth.backends.ModelBackend")
        return HttpResponse()

    through_the_site = SessionMiddleware(LocaleMiddleware(ReaderMiddleware(logs_in)))
    through_the_site(RequestFactory().post("/api/session/", headers={"accept-language": "zh-TW"}))
    assert ReaderSettings.objects.get(user=reader).pages_language == "zh-hans"


def test_the_account_page_says_which_language_mail_is_in(reader: User) -> None:
    client = Client()
    log_in(client, reader, "zh-Hans")
    page = client.get("/account/", headers={"accept-language": "en"}).content.decode()
    # the language named in itself, and marked as such: a screen reader reads it in Chinese
    said = 'Mail is sent in <span lang="zh-hans">简体中文</span>, the language of your pages at'
    assert said in page
    client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    page = client.get("/account/").content.decode()
    assert "郵件以繁體中文寄送，即您為頁面選擇的語言。" in re.sub(r"<[^>]+>", "", page)


def test_a_reader_never_seen_logging_in_is_mailed_in_english(reader: User) -> None:
    client = Client()
    client.force_login(reader)  # no page, so no language of the pages
    assert not ReaderSettings.objects.filter(user=reader).exists()
    page = client.get("/account/", headers={"accept-language": "zh-CN"}).content.decode()
    assert '邮件以<span lang="en">English</span>发送。' in page  # named in itself, marked
