"""Mailing many readers reads their languages and mail preferences with the query that lists
them: no query per recipient (each mail still costs its own inserts)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bakeoff.models import Announcement, Bakeoff, ReaderSettings, Site, Track
from notifications import receivers
from notifications.models import Mail, MailPreference
from tests.factories import NOW

pytestmark = pytest.mark.django_db

# In turn: (the language chosen, the language of the pages at the last login; "" for none), and
# the language of the mail. None: no ReaderSettings at all.
READERS = [
    (("zh-hans", ""), "zh-hans"),
    (("zh-hant", "zh-hans"), "zh-hant"),
    (("", "zh-hant"), "zh-hant"),
    (("", "zh-hans"), "zh-hans"),
    (None, "en"),
]
LEAD = {
    "en": "For the sites registered for",
    "zh-hans": "面向报名以下测试项的参赛单位",
    "zh-hant": "面向報名以下測試項的參賽單位",
}


def add_members(site: Site, count: int) -> list[User]:
    added = []
    for n in range(count):
        user = User.objects.create_user(f"member{n}", f"member{n}@example.org", "pw")
        known, _ = READERS[n % len(READERS)]
        if known is not None:
            chosen, at_login = known
            ReaderSettings.objects.create(user=user, language=chosen, pages_language=at_login)
        site.members.add(user)
        added.append(user)
    return added


def announce(bakeoff: Bakeoff, closed: Track) -> list[dict[str, str]]:
    """Post an announcement to the closed track's sites; the queries that read a reader's
    language or mail preferences."""
    announcement = Announcement.objects.create(
        bakeoff=bakeoff, subject="Deadline moved", text="By a day.", created_at=NOW
    )
    announcement.tracks.add(closed)
    with CaptureQueriesContext(connection) as captured:
        receivers.announcement_posted(announcement=announcement, now=NOW)
    return [
        q
        for q in captured.captured_queries
        if "readersettings" in q["sql"].lower() or "mailpreference" in q["sql"].lower()
    ]


@pytest.mark.parametrize("count", [2, 2 * len(READERS)])
def test_languages_and_preferences_are_read_in_one_query(
    bakeoff: Bakeoff, closed: Track, site: Site, participant: User, count: int
) -> None:
    participant.email = ""  # no address, no mail
    participant.save()
    members = add_members(site, count)
    MailPreference.objects.create(user=members[0], announcements=False)
    reading = announce(bakeoff, closed)
    assert len(reading) == 1, [q["sql"] for q in reading]
    mails = {mail.recipient: mail.text for mail in Mail.objects.filter(kind="announcement")}
    assert members[0] not in mails  # turned off
    for n, member in enumerate(members[1:], start=1):
        _, language = READERS[n % len(READERS)]
        text = mails[member]
        assert [lead for lead in LEAD if LEAD[lead] in text] == [language], text
