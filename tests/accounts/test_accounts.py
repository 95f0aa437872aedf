"""Accounts: sign-up with a verified address, login by e-mail or user name, passwords, e-mail
change, and the limits on login attempts (django-allauth, configured in config.settings)."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client

from tests.hints import Answer, ClientFor, OnCommit

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/accounts/[^\s]+/)")


def link_in(message: EmailMessage) -> str:
    found = LINK.search(str(message.body))
    assert found is not None, message.body
    return found.group(1)


def sign_up(client: Client, email: str = "lin@example.org") -> Answer:
    return client.post(
        "/accounts/signup/",
        {
            "email": email,
            "password1": "a long enough pass 1",
            "password2": "a long enough pass 1",
        },
    )


def verified_user(username: str = "vera", email: str = "vera@example.org") -> User:
    user = User.objects.create_user(username, email, "a long enough pass 1")
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def test_the_pages_of_accounts_exist(anonymous: Client) -> None:
    for path in ("/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"):
        assert anonymous.get(path).status_code == 200, path


def test_sign_up_sends_a_verification_link_that_logs_in(
    anonymous: Client, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    with on_commit():
        answer = sign_up(anonymous)
    assert answer.status_code == 302 and answer["Location"] == "/accounts/confirm-email/"
    user = User.objects.get(username="lin")
    assert not EmailAddress.objects.get(user=user).verified
    assert [m.to for m in mailoutbox] == [["lin@example.org"]]
    assert "Confirm" in mailoutbox[0].subject or "confirm" in mailoutbox[0].body
    assert "_auth_user_id" not in anonymous.session

    answer = anonymous.post(link_in(mailoutbox[0]))
    assert answer.status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    assert anonymous.session["_auth_user_id"] == str(user.pk)


def test_an_unverified_address_cannot_log_in(
    anonymous: Client, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    with on_commit():
        sign_up(anonymous)
    client = Client()
    answer = client.post(
        "/accounts/login/", {"login": "lin@example.org", "password": "a long enough pass 1"}
    )
    assert answer.status_code == 302 and answer["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session
    assert len(mailoutbox) == 1  # the link is sent again at most every 3 minutes


@pytest.mark.parametrize("login", ["vera", "vera@example.org", "VERA@example.org"])
def test_log_in_by_user_name_or_email(anonymous: Client, login: str) -> None:
    user = verified_user()
    answer = anonymous.post(
        "/accounts/login/", {"login": login, "password": "a long enough pass 1"}
    )
    assert answer.status_code == 302
    assert anonymous.session["_auth_user_id"] == str(user.pk)


def test_an_account_made_without_any_address_logs_in_without_verifying(
    anonymous: Client, participant: User
) -> None:
    answer = anonymous.post("/accounts/login/", {"login": "pat", "password": "pw-pat"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert anonymous.session["_auth_user_id"] == str(participant.pk)


def test_failed_logins_are_limited(anonymous: Client) -> None:
    verified_user()
    for _ in range(4):
        answer = anonymous.post("/accounts/login/", {"login": "vera", "password": "wrong"})
        assert answer.status_code == 200
    answer = anonymous.post("/accounts/login/", {"login": "vera", "password": "wrong"})
    assert answer.status_code == 429  # the fifth failure locks the account out of this address
    answer = anonymous.post(
        "/accounts/login/", {"login": "vera", "password": "a long enough pass 1"}
    )
    assert answer.status_code == 429
    assert "Too many failed logins" in answer.content.decode()
    assert "_auth_user_id" not in anonymous.session


def test_a_duplicate_email_at_sign_up_changes_nothing_and_tells_the_owner(
    anonymous: Client, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    verified_user()
    with on_commit():
        answer = sign_up(anonymous, email="vera@example.org")
    # The page is the same as for a new address (no one learns who has an account)...
    assert answer.status_code == 302 and answer["Location"] == "/accounts/confirm-email/"
    assert User.objects.count() == 1
    # ...and the owner of the address is told that someone tried.
    assert [m.to for m in mailoutbox] == [["vera@example.org"]]
    assert "already" in mailoutbox[0].body


def test_sign_up_never_tells_whether_a_user_name_exists(
    anonymous: Client, participant: User, on_commit: OnCommit
) -> None:
    """Sign-up asks for no user name: the account is named after the address, made unique, so a
    name that is taken and one that is not give the same answer (issue 24, item 7)."""
    assert 'name="username"' not in anonymous.get("/accounts/signup/").content.decode()
    with on_commit():
        taken = sign_up(anonymous, email=f"{participant.username}@example.org")
        free = sign_up(Client(), email="nobody-has-this@example.org")
    assert [(a.status_code, a["Location"]) for a in (taken, free)] == [
        (302, "/accounts/confirm-email/")
    ] * 2
    newcomer = User.objects.get(email=f"{participant.username}@example.org")
    assert newcomer.username.lower() != participant.username.lower()
    assert User.objects.get(email="nobody-has-this@example.org").username == "nobody-has-this"


def test_an_account_holder_changes_their_user_name(
    client_for: ClientFor, participant: User, organiser: User
) -> None:
    client = client_for(participant)
    assert "/account/name/" in client.get("/account/").content.decode()
    refused = client.post(
        "/account/name/", {"username": organiser.username.upper()}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert refused.status_code == 200
    assert "该用户名已被占用" in refused.content.decode()
    assert client.post("/account/name/", {"username": "bad name!"}).status_code == 200
    participant.refresh_from_db()
    assert participant.username == "pat"
    changed = client.post("/account/name/", {"username": "patricia"})
    assert changed.status_code == 302 and changed["Location"] == "/account/"
    participant.refresh_from_db()
    assert participant.username == "patricia"
    assert Client().get("/account/name/").status_code == 302  # signed-in users only


def test_password_reset_never_tells_whether_an_address_has_an_account(
    anonymous: Client, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    verified_user()
    with on_commit():
        known = anonymous.post("/accounts/password/reset/", {"email": "vera@example.org"})
        unknown = anonymous.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]

    # The same page but for its CSRF token (every page has one, in its language menu) and the
    # nonce of its inline styles (a new one on every answer).
    def page(location: str) -> str:
        text = Client().get(location).content.decode()
        text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)
        return re.sub(r'nonce="[^"]*"', "", text)

    assert page(known["Location"]) == page(unknown["Location"])
    assert sorted(m.to[0] for m in mailoutbox) == ["nobody@example.org", "vera@example.org"]


def test_a_reset_link_works_once(
    anonymous: Client, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    user = verified_user()
    with on_commit():
        anonymous.post("/accounts/password/reset/", {"email": "vera@example.org"})
    link = link_in(mailoutbox[0])
    form = anonymous.get(link, follow=True)
    assert form.status_code == 200
    page = form.redirect_chain[-1][0] if form.redirect_chain else link
    answer = anonymous.post(
        page, {"password1": "a new long pass 2", "password2": "a new long pass 2"}
    )
    assert answer.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a new long pass 2")

    again = Client().get(link, follow=True)
    assert "Bad Token" in again.content.decode() or "invalid" in again.content.decode()
    user.refresh_from_db()
    assert user.check_password("a new long pass 2")


def test_password_change(client_for: ClientFor) -> None:
    user = verified_user()
    client = client_for(user)
    answer = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": "a long enough pass 1",
            "password1": "a new long pass 2",
            "password2": "a new long pass 2",
        },
    )
    assert answer.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a new long pass 2")


def test_email_change_takes_effect_once_the_new_address_is_verified(
    client_for: ClientFor, mailoutbox: list[EmailMessage], on_commit: OnCommit
) -> None:
    user = verified_user()
    client = client_for(user)
    with on_commit():
        answer = client.post(
            "/accounts/email/", {"action_add": "", "email": "vera@new.example.org"}
        )
    assert answer.status_code == 302
    user.refresh_from_db()
    assert user.email == "vera@example.org"
    assert mailoutbox[-1].to == ["vera@new.example.org"]
    client.post(link_in(mailoutbox[-1]))
    user.refresh_from_db()
    assert user.email == "vera@new.example.org"
    assert list(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == [
        "vera@new.example.org"
    ]


def test_the_account_page_links_to_password_and_email(
    client_for: ClientFor, participant: User
) -> None:
    page = client_for(participant).get("/account/").content.decode()
    assert "/accounts/password/change/" in page and "/accounts/email/" in page


@pytest.mark.parametrize(
    ("accept", "hello", "name"),
    [("zh-CN", "您好：", "分词评测"), ("zh-TW", "您好：", "分詞評測"), ("en", "Hello,", "Bakeoff")],
)
def test_the_sign_up_mail_greets_in_the_readers_language_and_names_the_platform(
    anonymous: Client,
    mailoutbox: list[EmailMessage],
    on_commit: OnCommit,
    settings: object,
    accept: str,
    hello: str,
    name: str,
) -> None:
    settings.SITE_URL = "https://bakeoff.example.org"  # type: ignore[attr-defined]
    with on_commit():
        anonymous.post(
            "/accounts/signup/",
            {
                "email": "lin@example.org",
                "username": "lin",
                "password1": "a long enough pass 1",
                "password2": "a long enough pass 1",
            },
            headers={"accept-language": accept},
        )
    [mail] = mailoutbox
    body = str(mail.body)
    assert body.startswith(hello + "\n")
    assert mail.subject.startswith(f"[{name}] ")
    colon = ": " if accept == "en" else "："  # the signature's colon, as the language writes it
    assert f"{name}{colon}https://bakeoff.example.org/" in body
    assert "bakeoff.example.org" in body.split("--", 1)[0]  # the address it was given on
    assert "Hello from" not in body and "!" not in body
    if accept != "en":
        assert "Bakeoff" not in mail.subject + body
