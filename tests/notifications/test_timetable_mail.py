"""A change of the timetable is told: every member of every registered site (pending or approved)
is mailed the old and the new instants, in their own zone where they chose one, in the bakeoff's
zone and in UTC, in their language, with the organiser's note. Refused sites and outsiders are
not mailed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone

from bakeoff.models import Bakeoff, Corpus, ReaderSettings
from bakeoff.services import timetable
from tests.factories import make_site, track
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

EDIT = "/bakeoffs/b2026/edit/"


@pytest.fixture
def readers(bakeoff: Bakeoff, corpus: Corpus, participant: User, outsider: User) -> None:
    """Pat (approved, English), Otto (pending, 简体, in Paris), Rita (refused), Nina (no site)."""
    for user in (participant, outsider):
        user.email = f"{user.username}@example.org"
        user.save()
    ReaderSettings.objects.create(user=outsider, language="zh-hans", time_zone="Europe/Paris")
    rita = User.objects.create_user("rita", "rita@example.org", "pw-rita")
    User.objects.create_user("nina", "nina@example.org", "pw-nina")
    make_site(bakeoff, participant, [track(corpus)])
    make_site(bakeoff, outsider, [track(corpus, "open")], name="Team B", approved=False)
    refused = make_site(bakeoff, rita, [track(corpus, "open")], name="Team C", approved=False)
    refused.registrations.update(status="refused")


def form_data(bakeoff: Bakeoff, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": bakeoff.name,
        "slug": bakeoff.slug,
        "description": bakeoff.description,
        "time_zone": bakeoff.time_zone,
        "grace_minutes": bakeoff.grace_minutes,
    }
    for name in timetable.TIMETABLE:
        value = changes.pop(name, getattr(bakeoff, name))
        assert isinstance(value, datetime)
        data[name] = timezone.localtime(value, bakeoff.zone).strftime("%Y-%m-%dT%H:%M")
    data.update(changes)
    return data


def mail_to(mailoutbox: list[EmailMessage], address: str) -> EmailMessage:
    mine = [m for m in mailoutbox if m.to == [address]]
    assert len(mine) == 1, [m.to for m in mailoutbox]
    return mine[0]


def test_moving_the_deadline_on_the_page_mails_every_registered_site_with_the_note(
    bakeoff: Bakeoff,
    readers: None,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
    anonymous: Client,
) -> None:
    earlier = bakeoff.submission_deadline - timedelta(days=1)
    data = form_data(bakeoff, submission_deadline=earlier, timetable_note="The hall is booked.")
    with on_commit():
        answer = client_for(organiser).post(EDIT, data)
    assert answer.status_code == 302
    assert sorted(m.to[0] for m in mailoutbox) == ["otto@example.org", "pat@example.org"]
    english = mail_to(mailoutbox, "pat@example.org")
    assert english.subject == "[Bakeoff 2026] The timetable changed: Submission deadline"
    assert "the organisers of Bakeoff 2026 changed its timetable." in english.body
    assert "The organisers' note:\nThe hall is booked." in english.body
    page = anonymous.get("/bakeoffs/b2026/").content.decode()
    assert "The organisers' note: The hall is booked." in page


def test_the_instants_are_in_each_readers_zone_and_language(
    bakeoff: Bakeoff,
    readers: None,
    organiser: User,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    old = bakeoff.submission_deadline
    new = datetime(2031, 3, 2, 12, 0, tzinfo=UTC)  # 20:00 in Shanghai, 13:00 in Paris
    Bakeoff.objects.filter(pk=bakeoff.pk).update(submission_deadline=old.replace(year=2031))
    bakeoff.refresh_from_db()
    old = bakeoff.submission_deadline
    with on_commit():
        timetable.do_change_timetable(
            bakeoff, {"submission_deadline": new}, by=organiser, note="会场已订满。"
        )
    english = mail_to(mailoutbox, "pat@example.org").body
    utc = f"{old.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    assert "Submission deadline\n  before: " in english and utc in english
    assert "  now: 2031-03-02 20:00 CST (Asia/Shanghai) = 2031-03-02 12:00 UTC\n" in english
    assert "Europe/Paris" not in english  # Pat chose no zone
    chinese = mail_to(mailoutbox, "otto@example.org")
    assert chinese.subject == "[Bakeoff 2026] 日程表已更改： 提交截止"
    body = str(chinese.body)
    assert "otto，您好：" in body
    assert "Bakeoff 2026 的组织者更改了日程表。" in body
    assert (
        "  现为： 2031-03-02 13:00 CET (Europe/Paris) = 2031-03-02 20:00 CST (Asia/Shanghai) "
        "= 2031-03-02 12:00 UTC\n"
    ) in body
    assert "组织者的说明：\n会场已订满。" in body
    assert "before" not in body and "now:" not in body


def test_a_traditional_chinese_reader_reads_it_in_traditional_chinese(
    bakeoff: Bakeoff,
    readers: None,
    participant: User,
    organiser: User,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    ReaderSettings.objects.create(user=participant, language="zh-hant")
    later = bakeoff.registration_closes + timedelta(days=1)
    with on_commit():
        timetable.do_change_timetable(bakeoff, {"registration_closes": later}, by=organiser)
    mail = mail_to(mailoutbox, "pat@example.org")
    assert "日程表已更改" in mail.subject
    assert "Bakeoff 2026 的組織者更改了日程表。" in str(mail.body)
    assert "原為：" in str(mail.body) and "組織者的說明" not in str(mail.body)  # no note


def test_saving_without_a_change_mails_no_one(
    bakeoff: Bakeoff,
    readers: None,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with on_commit():
        answer = client_for(organiser).post(EDIT, form_data(bakeoff, timetable_note="Nothing."))
    assert answer.status_code == 302
    assert mailoutbox == []
