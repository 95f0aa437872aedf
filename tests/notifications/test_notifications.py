"""Every notification: what sets it off, who gets it, and who does not (locmem backend)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.utils import timezone

from bakeoff import services, tasks
from bakeoff.models import Bakeoff, Corpus, Registration, Site, Submission, SubmissionStatus
from leaderboard.services import do_publish
from notifications.models import Mail, MailPreference
from psychometric import failures
from psychometric.models import Committee
from psychometric.services import do_mark_committee_failed
from tests.factories import GOLD, RUNS, WORKED_RUN, make_site, make_user, track
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db


def addressed(user: User) -> User:
    user.email = f"{user.username}@example.org"
    user.save()
    return user


@pytest.fixture
def people(organiser: User, participant: User, outsider: User) -> dict[str, User]:
    """Everyone with an address: the organiser, two members of one site, an outsider."""
    for user in (organiser, participant, outsider):
        addressed(user)
    return {"pia": addressed(make_user("pia"))}


@pytest.fixture
def team(
    bakeoff: Bakeoff,
    corpus: Corpus,
    participant: User,
    people: dict[str, User],
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> Site:
    """Pat and Pia's site, approved for PKc (its mails forgotten)."""
    with on_commit():
        site = make_site(bakeoff, participant, [track(corpus)])
        site.members.add(people["pia"])
    Mail.objects.all().delete()
    mailoutbox.clear()
    return site


def inbox(mailoutbox: list[EmailMessage], kind_subject: str) -> list[str]:
    """The addresses that got a mail whose subject contains ``kind_subject``."""
    return sorted(m.to[0] for m in mailoutbox if kind_subject in m.subject)


def body_to(mailoutbox: list[EmailMessage], address: str, subject: str) -> str:
    [message] = [m for m in mailoutbox if m.to == [address] and subject in m.subject]
    return str(message.body)


# Registrations


def test_a_registration_is_acknowledged_and_the_organisers_asked(
    bakeoff: Bakeoff,
    corpus: Corpus,
    participant: User,
    people: dict[str, User],
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with on_commit():
        services.do_register_site(
            bakeoff,
            participant,
            name="Team A",
            institution="Somewhere University",
            country="CN",
            commercial_product=False,
            tracks={track(corpus): ""},
        )
    assert inbox(mailoutbox, "Registration received") == ["pat@example.org"]
    assert inbox(mailoutbox, "waiting for a decision") == ["olga@example.org"]
    assert "PKc" in body_to(mailoutbox, "olga@example.org", "waiting")
    assert "/bakeoffs/b2026/registrations/" in body_to(mailoutbox, "olga@example.org", "waiting")
    assert all(m.subject.startswith("[Bakeoff 2026] ") for m in mailoutbox)
    assert "otto@example.org" not in {m.to[0] for m in mailoutbox}


def test_a_bakeoff_that_approves_at_once_sends_only_the_approval(
    bakeoff: Bakeoff,
    corpus: Corpus,
    participant: User,
    people: dict[str, User],
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    Bakeoff.objects.filter(pk=bakeoff.pk).update(auto_approve=True)
    bakeoff.refresh_from_db()
    with on_commit():
        services.do_register_site(
            bakeoff,
            participant,
            name="Team A",
            institution="Somewhere University",
            country="CN",
            commercial_product=False,
            tracks={track(corpus): ""},
        )
    assert [m.subject for m in mailoutbox] == ["[Bakeoff 2026] Registration approved: PKc (S01)"]


def test_every_member_hears_of_an_approval(
    team: Site, organiser: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    registration = Registration.objects.create(
        site=team, track=track(team.bakeoff.corpora.get(), "open"), created_at=timezone.now()
    )
    with on_commit():
        services.do_approve_registration(registration, by=organiser)
    assert inbox(mailoutbox, "Registration approved: PKo") == ["pat@example.org", "pia@example.org"]
    assert "Your site code is S01" in body_to(mailoutbox, "pia@example.org", "approved")


def test_a_refusal_says_why(
    team: Site, organiser: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    registration = Registration.objects.create(
        site=team, track=track(team.bakeoff.corpora.get(), "open"), created_at=timezone.now()
    )
    with on_commit():
        services.do_refuse_registration(
            registration, by=organiser, reason="No statement of resources."
        )
    assert inbox(mailoutbox, "Registration refused: PKo") == ["pat@example.org", "pia@example.org"]
    assert "Reason: No statement of resources." in body_to(mailoutbox, "pat@example.org", "refused")


def test_a_decision_taken_twice_is_mailed_once(
    team: Site, organiser: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    registration = Registration.objects.create(
        site=team, track=track(team.bakeoff.corpora.get(), "open"), created_at=timezone.now()
    )
    with on_commit():
        services.do_approve_registration(registration, by=organiser)
        services.do_approve_registration(registration, by=organiser)
        services.do_refuse_registration(registration, by=organiser, reason="late")
    assert len(mailoutbox) == 2  # one approval, to each member


# Runs


def upload(
    team: Site, participant: User, on_commit: OnCommit, text: str = WORKED_RUN
) -> Submission:
    with on_commit():
        return services.submit_run(
            participant, track(team.bakeoff.corpora.get()), text.encode(), original_name="run.txt"
        )


def test_a_receipt_proves_when_the_run_arrived(
    team: Site, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    MailPreference.objects.create(
        user=participant, reminders=False, scored=False, announcements=False
    )
    submission = upload(team, participant, on_commit)
    assert inbox(mailoutbox, "Receipt: PKc run 1 received") == [
        "pat@example.org",
        "pia@example.org",
    ]
    body = body_to(mailoutbox, "pat@example.org", "Receipt")
    utc = submission.received_at.astimezone(UTC)
    local = submission.received_at.astimezone(team.bakeoff.zone)
    assert "Run number:   1 of 2" in body
    assert f"Checksum:     {submission.checksum}" in body
    assert f"{local:%Y-%m-%d %H:%M:%S} CST (Asia/Shanghai) = {utc:%Y-%m-%d %H:%M:%S} UTC" in body
    assert "run.txt" in body


def test_a_scored_run_is_mailed_with_its_figures(
    team: Site, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    upload(team, participant, on_commit)
    assert inbox(mailoutbox, "PKc run 1 scored: F = 0.815") == [
        "pat@example.org",
        "pia@example.org",
    ]
    body = body_to(mailoutbox, "pia@example.org", "scored")
    assert "Recall (R)     0.786" in body and "(11 of 14 gold words found" in body


def test_no_score_in_a_mail_while_the_bakeoff_hides_scores(
    team: Site, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    Bakeoff.objects.filter(pk=team.bakeoff_id).update(hide_scores_until_publication=True)
    upload(team, participant, on_commit)
    [subject] = {m.subject for m in mailoutbox if "scored" in m.subject}
    assert subject == "[Bakeoff 2026] PKc run 1 scored"
    body = body_to(mailoutbox, "pat@example.org", "scored")
    assert "0.8" not in body and "Recall" not in body
    assert "once the organisers publish them" in body
    html = [
        m.alternatives
        for m in mailoutbox
        if isinstance(m, EmailMultiAlternatives) and "scored" in m.subject
    ]
    assert html and "0.8" not in str(html)


def test_scored_mails_can_be_turned_off(
    team: Site, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    MailPreference.objects.create(user=participant, scored=False)
    upload(team, participant, on_commit)
    assert inbox(mailoutbox, "scored") == ["pia@example.org"]


def test_base_and_top_and_outsiders_get_no_mail(
    team: Site,
    participant: User,
    people: dict[str, User],
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    upload(team, participant, on_commit)
    addresses = {m.to[0] for m in mailoutbox}
    assert addresses == {"pat@example.org", "pia@example.org"}  # not olga, not otto
    assert not Mail.objects.filter(subject__contains="BASE").exists()


def test_a_failed_run_says_why_and_only_the_site_hears(
    team: Site,
    participant: User,
    corpus: Corpus,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    with on_commit():
        services.do_add_gold_version(corpus, GOLD.replace("今天", "明天").encode())
    Mail.objects.all().delete()
    mailoutbox.clear()
    upload(team, participant, on_commit)  # the new gold differs from the test text: not scored
    assert inbox(mailoutbox, "could not be scored") == ["pat@example.org", "pia@example.org"]
    assert "differs from the test text" in body_to(mailoutbox, "pat@example.org", "could not")
    assert inbox(mailoutbox, "Internal error") == []


def test_an_internal_failure_is_mailed_to_the_organisers_too(
    team: Site, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    submission = services.submit_run(
        participant, track(team.bakeoff.corpora.get()), WORKED_RUN.encode()
    )
    submission.file.delete(save=False)  # the stored run is lost: scoring crashes
    mailoutbox.clear()
    with on_commit():
        tasks.score_submission.delay(submission.pk)
    assert Submission.objects.get(pk=submission.pk).status == SubmissionStatus.FAILED
    assert inbox(mailoutbox, "Internal error: PKc") == ["olga@example.org"]
    assert "FileNotFoundError" in body_to(mailoutbox, "olga@example.org", "Internal error")
    assert "the organisers have been told" in body_to(mailoutbox, "pat@example.org", "could not")


def test_a_run_never_finished_is_an_internal_failure(
    team: Site, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    submission = services.submit_run(
        participant, track(team.bakeoff.corpora.get()), WORKED_RUN.encode()
    )
    Submission.objects.filter(pk=submission.pk).update(attempts=3)  # three workers died on it
    with on_commit():
        tasks.score_submission.delay(submission.pk)
    assert inbox(mailoutbox, "Internal error: PKc") == ["olga@example.org"]
    assert "3 times without finishing" in body_to(mailoutbox, "pia@example.org", "could not")


# The timetable


def announce(now: datetime) -> list[tuple[str, str]]:
    return services.do_announce_milestones(now=now)


def test_the_release_of_the_test_data_is_mailed_to_approved_sites_once(
    team: Site, outsider: User, corpus: Corpus, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    make_site(team.bakeoff, outsider, [track(corpus, "open")], name="Team B", approved=False)
    mailoutbox.clear()
    when = team.bakeoff.test_released + timedelta(minutes=3)
    with on_commit():
        assert ("b2026", "test_released") in announce(when)
        announce(when + timedelta(minutes=5))
    assert inbox(mailoutbox, "The test data is released") == [
        "pat@example.org",
        "pia@example.org",
    ]
    assert "/bakeoffs/b2026/corpora/PK/" in body_to(mailoutbox, "pat@example.org", "test data")


def test_an_old_release_is_not_announced(
    team: Site, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    with on_commit():
        announce(team.bakeoff.test_released + timedelta(days=1))
    assert inbox(mailoutbox, "released") == []


def test_reminders_48_and_2_hours_before_the_deadline_to_sites_with_runs_left(
    team: Site,
    participant: User,
    outsider: User,
    corpus: Corpus,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    full = make_site(team.bakeoff, outsider, [track(corpus)], name="Team B")
    for text in RUNS[:2]:
        services.do_accept_run(full, track(corpus), text, now=timezone.now())
    mailoutbox.clear()
    deadline = team.bakeoff.submission_deadline
    with on_commit():
        announce(deadline - timedelta(hours=47))
        announce(deadline - timedelta(hours=46))
    assert inbox(mailoutbox, "48 hours to the deadline") == ["pat@example.org", "pia@example.org"]
    assert "PKc: 2 runs" in body_to(mailoutbox, "pat@example.org", "48 hours")
    with on_commit():
        announce(deadline - timedelta(minutes=90))
    assert inbox(mailoutbox, "2 hours to the deadline") == ["pat@example.org", "pia@example.org"]


def test_reminders_can_be_turned_off(
    team: Site, participant: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    MailPreference.objects.create(user=participant, reminders=False)
    with on_commit():
        announce(team.bakeoff.submission_deadline - timedelta(hours=1))
    assert inbox(mailoutbox, "hours to the deadline") == ["pia@example.org"]


def test_published_results_are_mailed_to_every_participant(
    team: Site,
    organiser: User,
    outsider: User,
    corpus: Corpus,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    make_site(team.bakeoff, outsider, [track(corpus, "open")], name="Team B")
    bakeoff = Bakeoff.objects.get(pk=team.bakeoff_id)
    now = bakeoff.submission_deadline + timedelta(hours=1)
    with on_commit():
        do_publish(bakeoff, at=now, by=organiser, now=now)
        announce(now + timedelta(minutes=5))  # the milestone finds it mailed already
    assert inbox(mailoutbox, "The results are published") == [
        "otto@example.org",
        "pat@example.org",
        "pia@example.org",
    ]
    assert "/bakeoffs/b2026/results/" in body_to(mailoutbox, "pat@example.org", "results")


def test_results_published_for_later_are_mailed_when_they_come(
    team: Site, organiser: User, on_commit: OnCommit, mailoutbox: list[EmailMessage]
) -> None:
    bakeoff = Bakeoff.objects.get(pk=team.bakeoff_id)
    now = bakeoff.submission_deadline + timedelta(hours=1)
    later = now + timedelta(days=1)
    with on_commit():
        do_publish(bakeoff, at=later, by=organiser, now=now)
        announce(now)
    assert inbox(mailoutbox, "results") == []
    with on_commit():
        announce(later + timedelta(minutes=4))
    assert inbox(mailoutbox, "The results are published") == ["pat@example.org", "pia@example.org"]


# Committees


def test_a_committee_that_fails_is_mailed_to_the_organisers(
    bakeoff: Bakeoff,
    corpus: Corpus,
    people: dict[str, User],
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    gold = corpus.current_gold()
    assert gold is not None
    committee = Committee.objects.create(
        corpus=corpus,
        gold_version=gold,
        number=1,
        kind="runs",
        k=0,
        requested_at=timezone.now(),
    )
    with on_commit():
        failure = failures.failure(failures.ATTEMPTS_EXHAUSTED, {"attempts": 3})
        do_mark_committee_failed(committee.pk, failure, now=timezone.now())
    assert inbox(mailoutbox, "Committee failed") == ["olga@example.org"]
    reason = "Reason: The build was started 3 times without finishing."
    assert reason in body_to(mailoutbox, "olga@example.org", "Committee")


def test_every_mail_is_listed_for_the_organiser(
    team: Site, participant: User, on_commit: OnCommit, client_for: ClientFor, organiser: User
) -> None:
    upload(team, participant, on_commit)
    page = client_for(organiser).get("/bakeoffs/b2026/mail/").content.decode()
    assert len(re.findall("Receipt: PKc run 1 received", page)) == 2
    assert "Run scored" in page and "pia@example.org" in page
