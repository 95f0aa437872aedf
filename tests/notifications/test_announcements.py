"""Announcements: written on the bakeoff's pages, listed on the bakeoff page, mailed to every
member of every registered site or of the chosen tracks' sites."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage

from bakeoff.models import Announcement, Bakeoff, Corpus, Site
from notifications.models import MailPreference
from tests.factories import make_site, track
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db


@pytest.fixture
def sites(bakeoff: Bakeoff, corpus: Corpus, participant: User, outsider: User) -> list[Site]:
    """Pat's site on PKc, Otto's on PKo (pending), Rita's refused, and no site for Nina."""
    for user in (participant, outsider):
        user.email = f"{user.username}@example.org"
        user.save()
    rita = User.objects.create_user("rita", "rita@example.org", "pw-rita")
    User.objects.create_user("nina", "nina@example.org", "pw-nina")
    made = [
        make_site(bakeoff, participant, [track(corpus)]),
        make_site(bakeoff, outsider, [track(corpus, "open")], name="Team B", approved=False),
        make_site(bakeoff, rita, [track(corpus, "open")], name="Team C", approved=False),
    ]
    made[2].registrations.update(status="refused")
    return made


def post(
    client_for: ClientFor, organiser: User, on_commit: OnCommit, data: Mapping[str, object]
) -> int:
    with on_commit():
        answer = client_for(organiser).post("/bakeoffs/b2026/announcements/new/", dict(data))
    return answer.status_code


def test_an_announcement_is_listed_and_mailed_to_every_registered_site(
    bakeoff: Bakeoff,
    sites: list[Site],
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    data = {"subject": "Test data delayed", "text": "The test data comes a day later."}
    assert post(client_for, organiser, on_commit, data) == 302
    assert sorted(m.to[0] for m in mailoutbox) == ["otto@example.org", "pat@example.org"]
    assert {m.subject for m in mailoutbox} == {"[Bakeoff 2026] Test data delayed"}
    assert "The test data comes a day later." in mailoutbox[0].body
    page = client_for(None).get("/bakeoffs/b2026/").content.decode()
    assert "Test data delayed" in page and "The test data comes a day later." in page


def test_an_announcement_for_chosen_tracks_reaches_their_sites_only(
    bakeoff: Bakeoff,
    corpus: Corpus,
    sites: list[Site],
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    data = {"subject": "Open track", "text": "News.", "tracks": [track(corpus, "open").pk]}
    assert post(client_for, organiser, on_commit, data) == 302
    assert [m.to[0] for m in mailoutbox] == ["otto@example.org"]
    assert list(Announcement.objects.get().tracks.all()) == [track(corpus, "open")]
    assert "for PKo" in client_for(None).get("/bakeoffs/b2026/").content.decode()


def test_announcements_can_be_turned_off(
    bakeoff: Bakeoff,
    sites: list[Site],
    organiser: User,
    participant: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    MailPreference.objects.create(user=participant, announcements=False)
    post(client_for, organiser, on_commit, {"subject": "News", "text": "Hello."})
    assert [m.to[0] for m in mailoutbox] == ["otto@example.org"]


def test_only_organisers_announce(
    bakeoff: Bakeoff, sites: list[Site], participant: User, client_for: ClientFor
) -> None:
    answer = client_for(participant).post(
        "/bakeoffs/b2026/announcements/new/", {"subject": "Spam", "text": "Spam."}
    )
    assert answer.status_code == 404
    assert not Announcement.objects.exists()


def test_an_announcement_needs_a_subject_and_a_text(
    bakeoff: Bakeoff, organiser: User, client_for: ClientFor, on_commit: OnCommit
) -> None:
    assert post(client_for, organiser, on_commit, {"subject": "", "text": "x"}) == 200
    assert not Announcement.objects.exists()


def test_a_mail_says_what_was_typed_in_its_text_and_escapes_it_once_in_its_html(
    bakeoff: Bakeoff,
    sites: list[Site],
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    data = {"subject": 'Q&A <today> "R&D"', "text": "Bring questions & answers <here>."}
    assert post(client_for, organiser, on_commit, data) == 302
    mail = mailoutbox[0]
    assert mail.subject == '[Bakeoff 2026] Q&A <today> "R&D"'
    assert "Bring questions & answers <here>." in mail.body
    assert "&amp;" not in mail.body and "&lt;" not in mail.body
    html = str(mail.alternatives[0][0])  # type: ignore[attr-defined]
    assert "questions &amp; answers &lt;here&gt;" in html
    assert "&amp;amp;" not in html and "<here>" not in html
