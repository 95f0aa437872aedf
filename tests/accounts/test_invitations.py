"""Invitations: one address or a CSV of sites; a one-time link, valid 14 days, that makes or
links an account and puts it in the site. Used, expired and forged links get a clear page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail import EmailMessage
from django.test import Client, RequestFactory
from django.utils import timezone

from bakeoff.models import Bakeoff, Invitation, Site
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/invitations/[^\s]+/)")
ACCOUNT = {
    "username": "lin",
    "password1": "a long enough pass 1",
    "password2": "a long enough pass 1",
}


def link_in(message: EmailMessage) -> str:
    found = LINK.search(str(message.body))
    assert found is not None, message.body
    return found.group(1)


def invite(
    client_for: ClientFor, organiser: User, on_commit: OnCommit, email: str, site: Site | None
) -> int:
    with on_commit():
        answer = client_for(organiser).post(
            "/bakeoffs/b2026/participants/invite/",
            {"email": email, "site": site.pk if site else ""},
        )
    return answer.status_code


def test_an_invited_address_makes_its_account_and_joins_the_site(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    assert invite(client_for, organiser, on_commit, "lin@example.org", site) == 302
    (message,) = mailoutbox
    assert message.to == ["lin@example.org"]
    assert message.subject == "[Bakeoff 2026] You are invited to join Team A"
    link = link_in(message)
    client = Client()
    assert "Make my account and accept" in client.get(link).content.decode()

    answer = client.post(link, ACCOUNT)
    assert answer.status_code == 302
    lin = User.objects.get(username="lin")
    assert lin.email == "lin@example.org"
    assert EmailAddress.objects.get(user=lin).verified  # the link reached the address
    assert client.session["_auth_user_id"] == str(lin.pk)
    assert site.members.filter(pk=lin.pk).exists()
    invitation = Invitation.objects.get()
    assert invitation.accepted_by == lin and invitation.accepted_at is not None
    # The new member logs in by address from now on.
    assert authenticate(
        RequestFactory().post("/accounts/login/"),
        username="lin@example.org",
        password="a long enough pass 1",
    )

    again = Client().get(link)
    assert again.status_code == 410
    assert "already used" in again.content.decode()


def test_a_signed_in_account_accepts_and_joins(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    outsider: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    invite(client_for, organiser, on_commit, "otto@example.org", site)
    client = client_for(outsider)
    link = link_in(mailoutbox[0])
    assert "Accept as <strong>otto</strong>" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    assert site.members.filter(pk=outsider.pk).exists()
    outsider.refresh_from_db()
    assert outsider.email == "otto@example.org"


def test_an_existing_account_is_asked_to_log_in(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    User.objects.create_user("lin", "lin@example.org", "pw")
    invite(client_for, organiser, on_commit, "lin@example.org", site)
    link = link_in(mailoutbox[0])
    page = Client().get(link).content.decode()
    assert "log in</a> to accept" in page and f"next={link}" in page
    Client().post(link, {**ACCOUNT, "username": "lin2"})
    assert not User.objects.filter(username="lin2").exists()
    assert Invitation.objects.get().accepted_at is None


def test_an_expired_link_changes_nothing(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    invite(client_for, organiser, on_commit, "lin@example.org", site)
    Invitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    link = link_in(mailoutbox[0])
    for answer in (Client().get(link), Client().post(link, ACCOUNT)):
        assert answer.status_code == 410
        assert (
            "expired" in answer.content.decode() and "Ask the organisers" in answer.content.decode()
        )
    assert not User.objects.filter(username="lin").exists()


def test_links_are_valid_for_14_days(
    bakeoff: Bakeoff, site: Site, organiser: User, client_for: ClientFor, on_commit: OnCommit
) -> None:
    invite(client_for, organiser, on_commit, "lin@example.org", site)
    invitation = Invitation.objects.get()
    assert invitation.expires_at - invitation.created_at == timedelta(days=14)


@pytest.mark.parametrize("token", ["nonsense", "MQ:1tFoo:forgedsignature", "a" * 200])
def test_a_forged_link_gets_a_clear_page(anonymous: Client, token: str) -> None:
    answer = anonymous.get(f"/invitations/{token}/")
    assert answer.status_code == 404
    assert "This invitation link is not valid" in answer.content.decode()


def test_an_altered_link_is_refused(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    invite(client_for, organiser, on_commit, "lin@example.org", site)
    link = link_in(mailoutbox[0])
    token = link.split("/")[2]
    altered = link.replace(token, token[:-1] + ("A" if token[-1] != "A" else "B"))
    assert altered != link
    assert Client().post(altered, ACCOUNT).status_code == 404
    assert not User.objects.filter(username="lin").exists()


def test_a_taken_user_name_is_refused_and_nothing_changes(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    invite(client_for, organiser, on_commit, "lin@example.org", site)
    answer = Client().post(link_in(mailoutbox[0]), {**ACCOUNT, "username": "pat"})
    assert answer.status_code == 400
    assert "This user name is taken" in answer.content.decode()
    assert Invitation.objects.get().accepted_at is None


def test_inviting_an_address_twice_is_refused(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    invite(client_for, organiser, on_commit, "lin@example.org", site)
    with on_commit():
        answer = client_for(organiser).post(
            "/bakeoffs/b2026/participants/invite/", {"email": "LIN@example.org", "site": site.pk}
        )
    assert answer.status_code == 400
    assert "was already invited to Team A" in answer.content.decode()
    assert Invitation.objects.count() == 1 and len(mailoutbox) == 1


def test_an_invitation_without_a_site_leads_to_registration(
    bakeoff: Bakeoff,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    invite(client_for, organiser, on_commit, "lin@example.org", None)
    answer = Client().post(link_in(mailoutbox[0]), ACCOUNT)
    assert answer["Location"] == "/bakeoffs/b2026/register/"


CSV = (
    "site name,institution,contact e-mail\n"
    "北大组,Peking University,pku@example.org\n"
    "Lexicon Lab,Lab Inc.,lab@example.org\n"
)


def upload_csv(
    client_for: ClientFor, organiser: User, on_commit: OnCommit, text: str, accept: str = "en"
) -> str:
    with on_commit():
        answer = client_for(organiser).post(
            "/bakeoffs/b2026/participants/invite-sites/",
            {"file": SimpleUploadedFile("sites.csv", text.encode())},
            headers={"accept-language": accept},
            follow=True,
        )
    return answer.content.decode()


@pytest.mark.parametrize(
    ("sites", "accept", "words"),
    [
        (1, "en", "1 site invited."),
        (2, "en", "2 sites invited."),
        (1, "zh-CN", "已邀请 1 个参赛单位。"),
        (2, "zh-TW", "已邀請 2 個參賽單位。"),
    ],
)
def test_the_count_of_sites_invited_reads_in_the_readers_language(
    bakeoff: Bakeoff,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    sites: int,
    accept: str,
    words: str,
) -> None:
    rows = CSV.splitlines(keepends=True)
    page = upload_csv(client_for, organiser, on_commit, "".join(rows[: 1 + sites]), accept)
    assert words in page
    assert Site.objects.filter(bakeoff=bakeoff).count() == sites


def test_a_csv_of_sites_creates_them_and_invites_their_contacts(
    bakeoff: Bakeoff,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    page = upload_csv(client_for, organiser, on_commit, CSV)
    assert "2 sites invited" in page
    sites = {s.name: s for s in Site.objects.filter(bakeoff=bakeoff)}
    assert sites["北大组"].contact_email == "pku@example.org"
    assert sites["Lexicon Lab"].institution == "Lab Inc."
    assert sorted(m.to[0] for m in mailoutbox) == ["lab@example.org", "pku@example.org"]
    assert "[Bakeoff 2026] You are invited to join 北大组" in {m.subject for m in mailoutbox}
    Client().post(link_in(next(m for m in mailoutbox if m.to == ["pku@example.org"])), ACCOUNT)
    assert sites["北大组"].members.get().username == "lin"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Team,Uni\n", "Line 1: expected 3 columns"),
        (
            CSV + "Team C,Uni,not-an-address\n",
            "Line 4: &#x27;not-an-address&#x27; is not an e-mail",
        ),
        (
            CSV + "lexicon lab,Other,other@example.org\n",
            "Line 4: the site &#x27;lexicon lab&#x27; is already on line 3",
        ),
        (CSV + "Team C,Uni,LAB@example.org\n", "Line 4: LAB@example.org is already on line 3"),
        ("Team C,,c@example.org\n", "Line 1: the site name and institution are required"),
        ("site name,institution,contact e-mail\n", "The file has no site"),
    ],
)
def test_a_malformed_csv_names_its_line_and_changes_nothing(
    bakeoff: Bakeoff,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
    text: str,
    error: str,
) -> None:
    page = upload_csv(client_for, organiser, on_commit, text)
    assert error in page and "Nothing was changed." in page
    assert not Site.objects.exists() and not Invitation.objects.exists() and not mailoutbox


def test_a_csv_not_in_utf8_names_its_line(
    bakeoff: Bakeoff, organiser: User, client_for: ClientFor, on_commit: OnCommit
) -> None:
    with on_commit():
        answer = client_for(organiser).post(
            "/bakeoffs/b2026/participants/invite-sites/",
            {
                "file": SimpleUploadedFile(
                    "sites.csv", CSV.encode() + "第,组,x@example.org\n".encode("gb18030")
                )
            },
        )
    assert "Line 4: the file is not UTF-8." in answer.content.decode()
    assert not Site.objects.exists()


def test_the_participants_page_lists_sites_members_and_invitations(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    invite(client_for, organiser, on_commit, "lin@example.org", site)
    page = client_for(organiser).get("/bakeoffs/b2026/participants/").content.decode()
    assert "Team A" in page and "pat" in page and "lin@example.org" in page and "pending" in page
    assert (
        "/bakeoffs/b2026/participants/"
        in client_for(organiser).get("/bakeoffs/b2026/").content.decode()
    )


def test_only_organisers_manage_participants(
    bakeoff: Bakeoff, site: Site, participant: User, client_for: ClientFor
) -> None:
    client = client_for(participant)
    assert client.get("/bakeoffs/b2026/participants/").status_code == 404
    answer = client.post("/bakeoffs/b2026/participants/invite/", {"email": "x@example.org"})
    assert answer.status_code == 404
    assert not Invitation.objects.exists()


def test_an_organiser_removes_a_member(
    bakeoff: Bakeoff, site: Site, organiser: User, participant: User, client_for: ClientFor
) -> None:
    path = f"/bakeoffs/b2026/participants/{site.pk}/members/{participant.pk}/remove/"
    assert client_for(participant).post(path).status_code == 404
    assert client_for(organiser).post(path).status_code == 302
    assert not site.members.exists()


def test_the_admins_users_section_is_for_superusers(organiser: User, client_for: ClientFor) -> None:
    from bakeoff.demo import organisers_group

    organiser.groups.add(organisers_group())  # a staff organiser, as the demo makes one
    assert client_for(organiser).get("/admin/auth/user/").status_code == 302  # to the login
    root = User.objects.create_superuser("root", "root@example.org", "pw-root")
    assert client_for(root).get("/admin/auth/user/").status_code == 200


def test_an_invitation_is_written_in_the_language_of_the_organisers_pages(
    bakeoff: Bakeoff,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with on_commit():
        client_for(organiser).post(
            "/bakeoffs/b2026/participants/invite/",
            {"email": "lin@example.org"},
            headers={"accept-language": "zh-CN"},
        )
    (message,) = mailoutbox
    assert "邀请" in message.subject and "You are invited" not in str(message.body)


@pytest.mark.parametrize(
    ("accept", "used", "expired"),
    [
        ("zh-CN", "此邀请已于 ", "此邀请已于 "),
        ("zh-TW", "此邀請已於 ", "此邀請已於 "),
    ],
)
def test_a_used_or_expired_link_is_explained_in_the_readers_language(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    outsider: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
    accept: str,
    used: str,
    expired: str,
) -> None:
    invite(client_for, organiser, on_commit, "otto@example.org", site)
    link = link_in(mailoutbox[0])
    Invitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    page = Client().get(link, headers={"accept-language": accept}).content.decode()
    assert expired in page and "expired" not in page and "Ask the organisers" not in page
    assert "(Asia/Shanghai)" in page or "CST" in page  # the bakeoff's zone beside UTC
    Invitation.objects.update(
        expires_at=timezone.now() + timedelta(days=1), accepted_at=timezone.now()
    )
    page = Client().get(link, headers={"accept-language": accept}).content.decode()
    assert used in page and "already used" not in page and "Log in with" not in page
    forged = Client().get("/invitations/forged/", headers={"accept-language": accept})
    assert "This invitation link is not valid" not in forged.content.decode()


def test_many_addresses_pasted_at_once_are_all_invited(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    pasted = "lin@example.org\nwang@example.org, zhao@example.org；LIN@example.org"
    assert invite(client_for, organiser, on_commit, pasted, site) == 302
    assert sorted(Invitation.objects.values_list("email", flat=True)) == [
        "lin@example.org",
        "wang@example.org",
        "zhao@example.org",
    ]
    assert sorted(m.to[0] for m in mailoutbox) == [
        "lin@example.org",
        "wang@example.org",
        "zhao@example.org",
    ]


def test_a_refused_address_in_a_pasted_list_invites_no_one(
    bakeoff: Bakeoff,
    site: Site,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with on_commit():
        answer = client_for(organiser).post(
            "/bakeoffs/b2026/participants/invite/",
            {"email": "lin@example.org\nnot-an-address", "site": site.pk},
            headers={"accept-language": "zh-CN"},
        )
    assert answer.status_code == 400
    assert "not-an-address" in answer.content.decode()
    assert not Invitation.objects.exists() and mailoutbox == []
