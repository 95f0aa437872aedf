"""Published means closed, and no timetable change is silent: changes after the test data is
out are recorded and shown; moving the deadline before runs already received asks the organiser
to keep them as on time (with a reason) or to mark them late (never ranked)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from bakeoff import audit, services
from bakeoff.errors import DeadlinePassed, Refused
from bakeoff.models import AuditEntry, Bakeoff, Site, Submission, Track
from bakeoff.services import timetable
from leaderboard.models import TrackStanding
from tests.factories import WORKED_RUN, publish, upload
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

EDIT = "/bakeoffs/b2026/edit/"


def form_data(bakeoff: Bakeoff, **changes: object) -> dict[str, object]:
    """The edit form as the organiser sends it, times in the bakeoff's zone."""
    data: dict[str, object] = {
        "name": bakeoff.name,
        "slug": bakeoff.slug,
        "description": bakeoff.description,
        "time_zone": bakeoff.time_zone,
        "grace_minutes": bakeoff.grace_minutes,
    }
    for name in timetable.TIMETABLE:
        value = changes.pop(name, getattr(bakeoff, name))
        data[name] = timezone.localtime(value, bakeoff.zone).strftime("%Y-%m-%dT%H:%M")  # type: ignore[arg-type]
    data.update(changes)
    return data


@pytest.fixture
def received(participant: User, site: Site, closed: Track, on_commit: OnCommit) -> Submission:
    return upload(participant, closed, WORKED_RUN, on_commit)


def test_once_published_no_run_is_accepted_and_the_deadline_cannot_reopen(
    bakeoff: Bakeoff,
    received: Submission,
    participant: User,
    closed: Track,
    client_for: ClientFor,
    organiser: User,
) -> None:
    publish(bakeoff)
    tomorrow = timezone.now() + timedelta(days=1)
    with pytest.raises(Refused, match="submissions are closed for good"):
        timetable.do_change_timetable(bakeoff, {"submission_deadline": tomorrow}, by=organiser)
    page = client_for(organiser).post(EDIT, form_data(bakeoff, submission_deadline=tomorrow))
    assert "submissions are closed for good" in page.content.decode()
    bakeoff.refresh_from_db()
    assert bakeoff.submission_deadline < timezone.now()
    # even a deadline moved behind the services' back reopens nothing
    Bakeoff.objects.filter(pk=bakeoff.pk).update(submission_deadline=tomorrow)
    with pytest.raises(DeadlinePassed, match="results were published"):
        services.submit_run(participant, closed, WORKED_RUN.encode())
    assert not AuditEntry.objects.filter(action=audit.TIMETABLE_CHANGED).exists()


def test_changes_after_the_test_data_is_out_are_recorded_and_shown(
    bakeoff: Bakeoff, client_for: ClientFor, organiser: User, anonymous: Client
) -> None:
    later = bakeoff.submission_deadline + timedelta(hours=6)
    answer = client_for(organiser).post(EDIT, form_data(bakeoff, submission_deadline=later))
    assert answer.status_code == 302
    entry = AuditEntry.objects.get(bakeoff=bakeoff, action=audit.TIMETABLE_CHANGED)
    assert entry.actor == organiser
    assert entry.details["after_test_release"] is True
    old, new = entry.details["changes"]["submission_deadline"]
    moved = parse_datetime(new) - parse_datetime(old)  # type: ignore[operator]
    assert timedelta(hours=5, minutes=58) < moved <= timedelta(hours=6)  # minutes in the form
    page = anonymous.get("/bakeoffs/b2026/").content.decode()
    assert "Changes to the timetable since the test data was released" in page
    assert "Submission deadline" in page.split("Changes to the timetable", 1)[1]


def test_changes_before_the_test_data_are_recorded_not_shown(
    bakeoff: Bakeoff, organiser: User, anonymous: Client
) -> None:
    now = bakeoff.test_released - timedelta(hours=1)
    timetable.do_change_timetable(
        bakeoff,
        {"registration_closes": bakeoff.registration_closes + timedelta(hours=1)},
        by=organiser,
        now=now,
    )
    entry = AuditEntry.objects.get(bakeoff=bakeoff, action=audit.TIMETABLE_CHANGED)
    assert entry.details["after_test_release"] is False
    assert "Changes to the timetable" not in anonymous.get("/bakeoffs/b2026/").content.decode()


def test_an_earlier_deadline_shows_the_runs_received_after_it(
    bakeoff: Bakeoff, received: Submission, client_for: ClientFor, organiser: User
) -> None:
    earlier = received.received_at - timedelta(minutes=5)
    with pytest.raises(timetable.LateRunsNeedDecision) as refused:
        timetable.do_change_timetable(bakeoff, {"submission_deadline": earlier}, by=organiser)
    assert refused.value.runs == [received]
    page = client_for(organiser).post(EDIT, form_data(bakeoff, submission_deadline=earlier))
    html = page.content.decode()
    assert "arrived after the new deadline" in html
    assert "S01 Team A run 1" in html
    assert 'name="late_decision"' in html
    bakeoff.refresh_from_db()
    assert bakeoff.submission_deadline > received.received_at  # nothing changed yet
    assert not AuditEntry.objects.filter(action=audit.TIMETABLE_CHANGED).exists()


def test_runs_marked_late_are_kept_and_never_ranked(
    bakeoff: Bakeoff, received: Submission, client_for: ClientFor, organiser: User
) -> None:
    assert TrackStanding.objects.filter(submission=received).exists()
    earlier = received.received_at - timedelta(minutes=5)
    answer = client_for(organiser).post(
        EDIT, form_data(bakeoff, submission_deadline=earlier, late_decision="late")
    )
    assert answer.status_code == 302
    received.refresh_from_db()
    assert received.late
    assert not TrackStanding.objects.filter(submission=received).exists()
    decided = AuditEntry.objects.get(action=audit.RUN_LATENESS_DECIDED)
    assert decided.details["decision"] == "late"
    assert decided.site_id == received.site_id
    assert AuditEntry.objects.get(action=audit.TIMETABLE_CHANGED).details[
        "runs_after_new_deadline"
    ] == [received.pk]


def test_runs_kept_as_on_time_need_a_reason_and_stay_ranked(
    bakeoff: Bakeoff, received: Submission, organiser: User
) -> None:
    earlier = received.received_at - timedelta(minutes=5)
    new = {"submission_deadline": earlier}
    with pytest.raises(Refused, match="Say why"):
        timetable.do_change_timetable(bakeoff, new, by=organiser, decision="keep")
    timetable.do_change_timetable(
        bakeoff, new, by=organiser, decision="keep", reason="the server was down at 11:50"
    )
    received.refresh_from_db()
    assert not received.late
    assert TrackStanding.objects.filter(submission=received).exists()
    decided = AuditEntry.objects.get(action=audit.RUN_LATENESS_DECIDED)
    assert (decided.details["decision"], decided.details["reason"]) == (
        "keep",
        "the server was down at 11:50",
    )


def test_the_deadline_stays_before_a_scheduled_publication(
    bakeoff: Bakeoff, organiser: User
) -> None:
    from leaderboard.services import do_publish

    Bakeoff.objects.filter(pk=bakeoff.pk).update(
        submission_deadline=timezone.now() - timedelta(minutes=5)
    )
    bakeoff.refresh_from_db()
    do_publish(bakeoff, at=timezone.now() + timedelta(hours=2))
    with pytest.raises(Refused, match="before the publication"):
        timetable.do_change_timetable(
            bakeoff, {"submission_deadline": timezone.now() + timedelta(hours=3)}
        )
