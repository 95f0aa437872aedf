"""The other changes an organiser reads in the audit trail: corpora and tracks added, a track's
settings, runs the platform failed or queued again, papers, licences, announcements and
invitations. Every action has a label, in each language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from pytest_django import Settings

from bakeoff import audit, services
from bakeoff.models import (
    AuditEntry,
    Bakeoff,
    BucketScheme,
    Corpus,
    OutboxEntry,
    Site,
    Submission,
    SubmissionStatus,
    Track,
)
from tests.factories import NOW, WORKED_RUN, make_corpus

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("pk"))


def test_a_corpus_and_its_tracks_are_recorded_with_their_checksums(
    bakeoff: Bakeoff, organiser: User
) -> None:
    corpus = make_corpus(bakeoff, abbreviation="AS", conditions=("closed", "open"))
    (added,) = entries(audit.CORPUS_ADDED)
    assert added.details["test_text_checksum"] == corpus.test_text_checksum
    assert added.details["conditions"] == ["closed", "open"]
    tracks = entries(audit.TRACK_ADDED)
    assert [entry.track for entry in tracks] == list(corpus.tracks.order_by("pk"))
    base = corpus.tracks.get(condition="closed").submissions.get(kind="baseline")
    assert tracks[0].details["reference_runs"]["baseline"] == base.checksum
    assert tracks[0].details["max_runs"] == 2


def test_a_track_added_on_the_organiser_page_names_the_organiser(
    bakeoff: Bakeoff, organiser: User
) -> None:
    corpus = make_corpus(bakeoff, conditions=("closed",))
    track = services.do_add_track(corpus, "open", max_runs=3, by=organiser)
    entry = entries(audit.TRACK_ADDED)[-1]
    assert (entry.track, entry.actor) == (track, organiser)
    assert entry.details["max_runs"] == 3


def test_a_bucket_scheme_change_is_recorded_with_old_and_new(
    closed: Track, organiser: User
) -> None:
    old = closed.bucket_scheme
    assert services.do_set_bucket_scheme(closed, BucketScheme.INTERPRETEVAL, by=organiser)
    assert not services.do_set_bucket_scheme(closed, BucketScheme.INTERPRETEVAL, by=organiser)
    (entry,) = entries(audit.TRACK_EDITED)
    assert entry.details == {
        "old": {"bucket_scheme": old},
        "new": {"bucket_scheme": BucketScheme.INTERPRETEVAL},
    }
    assert entry.actor == organiser


def of_run(run: Submission, action: str) -> list[AuditEntry]:
    return [entry for entry in entries(action) if entry.details["submission"] == run.pk]


def accepted(user: User, track: Track) -> Submission:
    return services.submit_run(user, track, WORKED_RUN.encode(), now=NOW)


def test_a_failed_run_is_recorded_with_its_reason(
    pk_closed: Track, team: Site, participant: User
) -> None:
    run = accepted(participant, pk_closed)
    assert services.do_mark_failed(run.pk, "The run could not be scored: line 3.", now=NOW)
    assert not services.do_mark_failed(run.pk, "again", now=NOW)  # failed once, recorded once
    (entry,) = entries(audit.RUN_FAILED)
    assert entry.details["submission"] == run.pk
    assert entry.details["reason"] == "The run could not be scored: line 3."
    assert entry.details["internal"] is False
    assert entry.actor is None and entry.site == team


def test_runs_queued_again_by_the_recovery_are_recorded_with_the_cause(
    pk_closed: Track, team: Site, participant: User, settings: Settings
) -> None:
    stuck = accepted(participant, pk_closed)
    services.do_claim(stuck.pk, now=NOW)
    later = NOW + timedelta(seconds=settings.BAKEOFF_STUCK_AFTER_SECONDS + 1)
    assert stuck.pk in services.do_sweep_stuck(now=later)  # BASE and TOP wait too
    (entry,) = of_run(stuck, audit.RUN_REQUEUED)
    assert (entry.details["cause"], entry.at, entry.site) == ("stuck", later, team)

    services.do_claim(stuck.pk, now=later)
    Submission.objects.filter(pk=stuck.pk).update(lease_until=later)
    assert services.do_requeue_abandoned(now=later + timedelta(seconds=1)) == [stuck.pk]
    assert of_run(stuck, audit.RUN_REQUEUED)[-1].details["cause"] == "worker_lost"


def test_a_run_republished_without_a_change_of_state_is_not_recorded(
    pk_closed: Track, team: Site, participant: User, settings: Settings
) -> None:
    run = accepted(participant, pk_closed)
    later = NOW + timedelta(seconds=settings.BAKEOFF_REPUBLISH_QUEUED_AFTER_SECONDS + 1)
    OutboxEntry.objects.all().delete()  # as if published, and its message lost
    assert run.pk in services.do_republish_lost(now=later, queue_empty=True)
    assert Submission.objects.get(pk=run.pk).status == SubmissionStatus.QUEUED
    assert not entries(audit.RUN_REQUEUED)


def test_a_paper_attached_is_recorded(closed: Track, site: Site, participant: User) -> None:
    paper = services.do_attach_paper(participant, closed, upload=PDF, title="Our system")
    services.do_attach_paper(participant, closed, url="https://example.org/ours.pdf")
    first, second = entries(audit.PAPER_ATTACHED)
    assert (first.actor, first.site, first.track) == (participant, site, closed)
    assert first.details["checksum"] == paper.checksum and not first.details["replaced"]
    assert second.details["url"] == "https://example.org/ours.pdf" and second.details["replaced"]


def test_a_licence_accepted_is_recorded_once(corpus: Corpus, site: Site, participant: User) -> None:
    Corpus.objects.filter(pk=corpus.pk).update(licence="Research only.")
    corpus.refresh_from_db()
    services.do_accept_licence(corpus, participant)
    services.do_accept_licence(corpus, participant)
    (entry,) = entries(audit.LICENCE_ACCEPTED)
    assert (entry.actor, entry.site) == (participant, site)
    assert entry.details["licence_checksum"].startswith("sha256:")


def test_an_announcement_is_recorded(bakeoff: Bakeoff, closed: Track, organiser: User) -> None:
    announcement = services.do_post_announcement(
        bakeoff, subject="Test data delayed", text="A day later.", tracks=[closed], by=organiser
    )
    (entry,) = entries(audit.ANNOUNCEMENT_POSTED)
    assert entry.subject == "Test data delayed" and entry.actor == organiser
    assert entry.details == {"announcement": announcement.pk, "tracks": [closed.slug]}


def test_an_invitation_sent_and_accepted_is_recorded(
    bakeoff: Bakeoff, site: Site, organiser: User
) -> None:
    invitation = services.do_invite(bakeoff, "lin@example.org", site=site, by=organiser)
    (sent,) = entries(audit.INVITATION_SENT)
    assert (sent.actor, sent.site) == (organiser, site)
    assert "lin@example.org" in sent.subject
    lin = User.objects.create_user("lin", "lin@example.org", "pw-lin")
    assert services.do_accept_invitation(invitation, lin)
    assert not services.do_accept_invitation(invitation, lin)  # used: nothing more recorded
    (joined,) = entries(audit.INVITATION_ACCEPTED)
    assert (joined.actor, joined.site) == (lin, site)
    assert joined.details["invitation"] == invitation.pk


def actions() -> list[str]:
    return [
        value
        for name, value in vars(audit).items()
        if name.isupper() and isinstance(value, str) and "." in value
    ]


def test_every_action_has_a_label() -> None:
    assert len(actions()) >= 37
    assert sorted(set(actions()) - set(audit.LABELS)) == []


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_every_label_is_translated(language: str) -> None:
    with translation.override("en"):
        english = {action: str(label) for action, label in audit.LABELS.items()}
    with translation.override(language):
        untranslated = [
            english[action]
            for action, label in audit.LABELS.items()
            if str(label) == english[action]
        ]
    assert untranslated == []
