"""Every mail a reader of 简体 or 繁體 gets reads as Chinese: no English word of the interface, no
ASCII punctuation beside a Chinese character, no space between two sentences or before a
full-width parenthesis (what the walk of every page checks on the pages, test_chinese_walk.py).
One contest is lived through by people who read the pages in one script, and every mail it sends
them is read: subject, text and HTML."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone, translation

from bakeoff import services, tasks
from bakeoff.models import (
    Bakeoff,
    Corpus,
    ReaderSettings,
    Registration,
    Submission,
    SubmissionStatus,
)
from bakeoff.services import timetable
from leaderboard.services import do_publish
from notifications.kinds import KINDS
from notifications.models import Mail, MailStatus
from psychometric import failures
from psychometric.models import Committee
from psychometric.services import do_mark_committee_failed
from tests.bakeoff.test_chinese_walk import (
    ASCII_BESIDE_CJK,
    PROPER,
    SPACE_AFTER_FULL_STOP,
    WORD,
    ZONES,
    PageText,
    data_words,
    found_in,
)
from tests.factories import GOLD, RUNS, WORKED_RUN, track
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

# The people's names and addresses, and Django (its admin, where an internal failure is undone).
MAIL_WORDS = {"olga", "pat", "otto", "lin", "new", "org", "example", "django", "testserver"}
# A space before （ but after a label's colon: a column of the text mail ("文件：  （无文件名）").
LABELLED_PARENTHESIS = re.compile(r"[^\s：]\s+（")
# Links, checksums and the name of an exception in an internal failure: code, not words.
CODE = re.compile(r"https?://\S+|sha256:[0-9a-f]+|\b[0-9a-f]{12,}\b|\b\w+Error\b|[\w.-]+\.txt\b")


def contest(language: str, organiser: User, participant: User, outsider: User,
            bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit) -> None:  # fmt: skip
    """A contest in which every mail to a reader is sent: its people read ``language``."""
    for user in (organiser, participant, outsider):
        user.email = f"{user.username}@example.org"
        user.save()
        ReaderSettings.objects.create(user=user, language=language)
    closed, open_ = track(corpus), track(corpus, "open")
    with on_commit():  # received, and waiting for a decision (to the organisers)
        site, other = (
            services.do_register_site(
                bakeoff, user, name=name, institution="北京大学", country="CN",
                commercial_product=False, tracks={chosen: "一部词典"},
            )
            for user, name, chosen in ((participant, "甲队", closed), (outsider, "乙队", open_))
        )  # fmt: skip
    with on_commit():  # approved, refused
        services.do_approve_registration(Registration.objects.get(site=site), by=organiser)
        services.do_refuse_registration(
            Registration.objects.get(site=other), by=organiser, reason="论文未交"
        )
    with on_commit():  # the test data released; 48 hours left, with runs left to send
        services.do_announce_milestones(now=bakeoff.test_released + timedelta(minutes=3))
        services.do_announce_milestones(now=bakeoff.submission_deadline - timedelta(hours=47))
    with on_commit():  # received and scored
        services.submit_run(participant, closed, WORKED_RUN.encode(), original_name="run.txt")
    lost = services.submit_run(participant, closed, RUNS[0].encode())
    lost.file.delete(save=False)
    with on_commit():  # failed, and failed for an internal reason (to the organisers)
        tasks.score_submission.delay(lost.pk)
    with on_commit():
        timetable.do_change_timetable(
            bakeoff,
            {"registration_closes": bakeoff.registration_closes + timedelta(hours=1)},
            by=organiser,
            note="会场已订满。",
        )
        services.do_post_announcement(
            bakeoff, subject="评测说明", text="请按时提交。", tracks=[closed], by=organiser
        )
    gold = corpus.current_gold()
    assert gold is not None
    committee = Committee.objects.create(
        corpus=corpus, gold_version=gold, number=1, kind="runs", k=0,
        requested_at=timezone.now(),
    )  # fmt: skip
    with on_commit():
        failure = failures.failure(failures.ATTEMPTS_EXHAUSTED, {"attempts": 3})
        do_mark_committee_failed(committee.pk, failure, now=timezone.now())
    with on_commit():  # a gold whose characters the scored run no longer has: it fails, said why
        services.do_add_gold_version(corpus, GOLD.replace("今天", "明天").encode())
    bakeoff = Bakeoff.objects.get(pk=bakeoff.pk)
    now = bakeoff.submission_deadline + timedelta(hours=1)
    with on_commit():
        do_publish(bakeoff, at=now, by=organiser, now=now)
    with translation.override(language), on_commit():  # in the organiser's language
        services.do_invite(bakeoff, "new@example.org", by=organiser)
    # The account's own mails are in the language of the page that asks for them.
    reader = Client(headers={"accept-language": language})
    password = "a long enough pass 1"
    with on_commit():  # an address to verify, and a password reset
        signed_up = reader.post(
            "/accounts/signup/",
            {"email": "lin@example.org", "username": "lin", "password1": password,
             "password2": password},
        )  # fmt: skip
        reset = reader.post("/accounts/password/reset/", {"email": participant.email})
    assert (signed_up.status_code, reset.status_code) == (302, 302)
    failed = Submission.objects.filter(site=site, status=SubmissionStatus.FAILED)
    assert failed.count() == 2  # the lost run, and the scored one under the new gold


def lines(message: EmailMessage) -> list[str]:
    """What a reader reads of a mail as sent, line by line (a line of the text, a run of the
    HTML's flowing text), its links and checksums left out: a line break parts two sentences as a
    paragraph does, and a column of the text lines its values up with spaces after the label."""
    page = PageText()
    for html, _type in getattr(message, "alternatives", []):
        page.feed(str(html))
    page.close()
    shown = [str(message.subject), *str(message.body).splitlines(), *page.flows]
    return [CODE.sub("\x01", line) for line in shown if line.strip()]


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_every_mail_to_a_reader_of_chinese_reads_as_chinese(
    language: str,
    organiser: User,
    participant: User,
    outsider: User,
    bakeoff: Bakeoff,
    corpus: Corpus,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    contest(language, organiser, participant, outsider, bakeoff, corpus, on_commit)
    sent = Mail.objects.filter(status=MailStatus.SENT)
    assert set(KINDS) <= set(sent.values_list("kind", flat=True))
    # Read as sent, secrets and all (a reset's or an invitation's body is not kept: kinds.py).
    assert len(mailoutbox) == sent.count() and sent.filter(to="lin@example.org").exists()
    allowed = PROPER | MAIL_WORDS | ZONES | data_words()
    found: dict[str, set[str]] = {}
    for message in mailoutbox:
        for line in lines(message):
            bad = {w for w in WORD.findall(line) if w.lower() not in allowed}
            bad |= found_in(line, [], ASCII_BESIDE_CJK, SPACE_AFTER_FULL_STOP, LABELLED_PARENTHESIS)
            if bad:
                found.setdefault(f"{message.subject} to {message.to[0]}", set()).update(bad)
    assert found == {}
