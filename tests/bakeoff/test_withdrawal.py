"""Withdrawing a run, in each phase: an official run until the deadline, a development run
during the development phase, a post-bakeoff run while its track is open for post-bakeoff runs;
only by a member of the run's site, on the page, the service and the API alike. A withdrawal the
phase refuses is in the audit trail; the harmless refusals are not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from bakeoff import audit, services
from bakeoff.errors import DeadlinePassed, NotAllowed, NotReleased, Refused, RunLimitReached
from bakeoff.models import AuditEntry, Bakeoff, Corpus, Site, Submission, SubmissionKind, Track
from bakeoff.services.development import do_add_development_set
from leaderboard.models import PostBakeoffStanding
from tests.factories import (
    NEAR_PERFECT_RUN,
    PERFECT_RUN,
    SPLIT_RUN,
    WORKED_RUN,
    close_submissions,
    publish,
    rival,
)
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

DEV_GOLD = "我们 在 上海 学习\n明天 天气 很 好\n"
DEV_RUNS = ("我们 在 上海 学 习\n明天 天气 很 好\n", "我们 在 上海 学习\n明天 天气 很好\n")
B = "/bakeoffs/b2026/"
API = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/{}/withdraw/"


@pytest.fixture
def dev_corpus(corpus: Corpus) -> Corpus:
    do_add_development_set(corpus, text=None, gold=DEV_GOLD.encode())
    return corpus


def development_run(
    user: User, track: Track, on_commit: OnCommit, text: str = DEV_RUNS[0]
) -> Submission:
    with on_commit():  # scored against the development set
        return services.submit_run(user, track, text.encode(), phase="development")


def post_bakeoff_run(
    user: User, track: Track, on_commit: OnCommit, text: str = NEAR_PERFECT_RUN
) -> Submission:
    with on_commit():
        run = services.submit_run(user, track, text.encode(), phase="post_bakeoff")
    run.refresh_from_db()
    return run


def api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def withdraw_page(client: Client, run: Submission) -> str:
    return client.get(f"{B}submissions/{run.pk}/").content.decode()


def development_rows(client: Client) -> int:
    """The rows of the closed track's development table (one F in bold each)."""
    page = client.get(f"{B}tracks/pk-closed/development/").content.decode()
    return page.count('<td class="num"><strong>')


def refusals() -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=audit.RUN_WITHDRAWAL_REFUSED).order_by("pk"))


@pytest.fixture
def opened(bakeoff: Bakeoff, closed: Track, site: Site) -> Track:
    """The bakeoff published and its closed track open for post-bakeoff runs."""
    publish(bakeoff)
    services.do_open_post_bakeoff(closed)
    return closed


# -- the rule of each phase ------------------------------------------------------------------------


def test_an_official_run_is_withdrawn_until_the_deadline_only(
    participant: User, site: Site, closed: Track
) -> None:
    first = services.submit_run(participant, closed, PERFECT_RUN.encode(), description="x")
    second = services.submit_run(participant, closed, WORKED_RUN.encode(), description="x")
    deadline = closed.corpus.bakeoff.submission_deadline
    services.do_withdraw_run(first, user=participant, now=deadline)
    with pytest.raises(DeadlinePassed, match="until the submission deadline"):
        services.do_withdraw_run(second, user=participant, now=deadline + timedelta(seconds=1))
    second.refresh_from_db()
    assert second.withdrawn_at is None


def test_a_development_run_is_withdrawn_during_the_development_phase_only(
    dev_corpus: Corpus,
    participant: User,
    site: Site,
    closed: Track,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    kept, withdrawn = (development_run(participant, closed, on_commit, text) for text in DEV_RUNS)
    assert development_rows(client_for(participant)) == 2
    services.do_withdraw_run(withdrawn, user=participant)
    # a withdrawn run is in no table: the development table keeps the other run only
    assert development_rows(client_for(participant)) == 1
    after = closed.corpus.bakeoff.submission_deadline + timedelta(seconds=1)
    with pytest.raises(DeadlinePassed, match="development phase"):
        services.do_withdraw_run(kept, user=participant, now=after)
    kept.refresh_from_db()
    assert kept.withdrawn_at is None


def test_a_post_bakeoff_run_is_withdrawn_while_its_track_is_open(
    participant: User, opened: Track, on_commit: OnCommit
) -> None:
    run = post_bakeoff_run(participant, opened, on_commit)
    assert PostBakeoffStanding.objects.filter(submission=run).exists()
    with on_commit():
        services.do_withdraw_run(run, user=participant, reason="a bug")
    run.refresh_from_db()
    assert run.withdrawn_at is not None
    assert not PostBakeoffStanding.objects.filter(submission=run).exists()
    assert AuditEntry.objects.get(action=audit.RUN_WITHDRAWN).details["phase"] == "post_bakeoff"


def test_a_post_bakeoff_run_stays_once_its_track_closes(
    participant: User, opened: Track, on_commit: OnCommit
) -> None:
    run = post_bakeoff_run(participant, opened, on_commit)
    services.do_open_post_bakeoff(opened, open=False)
    with pytest.raises(NotReleased, match="PKc is not"):
        services.do_withdraw_run(run, user=participant)
    services.do_open_post_bakeoff(opened)  # opened again, it may go
    services.do_withdraw_run(Submission.objects.get(pk=run.pk), user=participant)


def test_withdrawing_a_post_bakeoff_run_gives_back_no_run_of_the_day(
    participant: User, opened: Track, on_commit: OnCommit
) -> None:
    limit = opened.corpus.bakeoff.post_bakeoff_runs_per_day
    runs = [
        post_bakeoff_run(
            participant, opened, on_commit, (NEAR_PERFECT_RUN, WORKED_RUN, SPLIT_RUN)[i % 3]
        )
        for i in range(limit)
    ]
    services.do_withdraw_run(runs[0], user=participant)
    with pytest.raises(RunLimitReached):
        post_bakeoff_run(participant, opened, on_commit, SPLIT_RUN)


def test_an_official_run_stays_when_its_track_opens_for_post_bakeoff_runs(
    bakeoff: Bakeoff, participant: User, site: Site, closed: Track, client_for: ClientFor
) -> None:
    run = services.submit_run(participant, closed, PERFECT_RUN.encode(), description="x")
    publish(bakeoff)
    services.do_open_post_bakeoff(closed)
    with pytest.raises(DeadlinePassed):
        services.do_withdraw_run(run, user=participant)
    assert "Withdraw the run" not in withdraw_page(client_for(participant), run)


# -- the audit trail -------------------------------------------------------------------------------


def test_a_withdrawal_refused_after_the_deadline_is_recorded(
    participant: User, organiser: User, site: Site, closed: Track, client_for: ClientFor
) -> None:
    run = services.submit_run(participant, closed, PERFECT_RUN.encode(), description="x")
    late = closed.corpus.bakeoff.submission_deadline + timedelta(minutes=3)
    with pytest.raises(DeadlinePassed) as refused:
        services.do_withdraw_run(run, user=participant, now=late, reason="we found a bug")
    [entry] = refusals()
    assert (entry.actor, entry.track, entry.site, entry.at) == (participant, closed, site, late)
    assert entry.details["submission"] == run.pk
    assert entry.details["phase"] == "test"
    assert entry.details["rule"] == "late"
    assert entry.details["refusal"] == refused.value.detail
    assert entry.details["reason"] == "we found a bug"
    assert entry.details["checksum"] == run.checksum
    trail = client_for(organiser).get(f"{B}audit/?action={entry.action}").content.decode()
    assert "Withdrawal refused" in trail and "we found a bug" in trail


def test_a_withdrawal_refused_after_the_track_closed_is_recorded(
    participant: User, opened: Track, on_commit: OnCommit
) -> None:
    run = post_bakeoff_run(participant, opened, on_commit)
    services.do_open_post_bakeoff(opened, open=False)
    with pytest.raises(NotReleased):
        services.do_withdraw_run(run, user=participant)
    [entry] = refusals()
    assert (entry.details["phase"], entry.details["rule"]) == ("post_bakeoff", "not_released")


def test_the_harmless_refusals_are_not_recorded(
    bakeoff: Bakeoff,
    participant: User,
    organiser: User,
    outsider: User,
    site: Site,
    closed: Track,
) -> None:
    run = services.submit_run(participant, closed, PERFECT_RUN.encode(), description="x")
    base = Submission.objects.get(track=closed, kind=SubmissionKind.BASELINE)
    _other, theirs = rival(bakeoff, closed)
    late = bakeoff.submission_deadline + timedelta(days=1)
    for someone in (outsider, organiser, theirs.members.get()):
        with pytest.raises(NotAllowed):  # not theirs, even after the deadline
            services.do_withdraw_run(run, user=someone, now=late)
    with pytest.raises(NotAllowed):
        services.do_withdraw_run(base, user=organiser)
    services.do_withdraw_run(run, user=participant)
    with pytest.raises(Refused, match="was withdrawn at"):
        services.do_withdraw_run(run, user=participant, now=late)
    assert refusals() == []


# -- nobody withdraws another site's run -----------------------------------------------------------


def test_nobody_withdraws_another_sites_run(
    bakeoff: Bakeoff,
    participant: User,
    organiser: User,
    opened: Track,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    run = post_bakeoff_run(participant, opened, on_commit)
    other, _theirs = rival(bakeoff, opened)
    with pytest.raises(NotAllowed):
        services.do_withdraw_run(run, user=other)
    # another site does not even find the run; the organisers see it and may not withdraw it
    assert client_for(other).post(f"{B}submissions/{run.pk}/withdraw/").status_code == 404
    assert api(other).post(API.format(run.pk)).status_code == 404
    assert client_for(organiser).post(f"{B}submissions/{run.pk}/withdraw/").status_code == 403
    answer = api(organiser).post(API.format(run.pk))
    assert (answer.status_code, answer.json()["code"]) == (403, "not_allowed")
    assert "Withdraw the run" not in withdraw_page(client_for(organiser), run)
    run.refresh_from_db()
    assert run.withdrawn_at is None


# -- the page and the API --------------------------------------------------------------------------


def test_the_page_offers_to_withdraw_a_post_bakeoff_run_while_its_track_is_open(
    participant: User, opened: Track, client_for: ClientFor, on_commit: OnCommit
) -> None:
    run = post_bakeoff_run(participant, opened, on_commit)
    client = client_for(participant)
    page = withdraw_page(client, run)
    assert "Withdraw the run" in page and "post-bakeoff table" in page
    services.do_open_post_bakeoff(opened, open=False)
    assert "Withdraw the run" not in withdraw_page(client, run)
    answer = client.post(f"{B}submissions/{run.pk}/withdraw/")
    assert answer.status_code == 403
    assert "open for post-bakeoff runs" in answer.content.decode()
    services.do_open_post_bakeoff(opened)
    answer = client.post(f"{B}submissions/{run.pk}/withdraw/", follow=True)
    assert "in no table any more" in answer.content.decode()
    run.refresh_from_db()
    assert run.withdrawn_at is not None


def test_the_page_offers_to_withdraw_a_development_run_during_its_phase(
    dev_corpus: Corpus,
    bakeoff: Bakeoff,
    participant: User,
    site: Site,
    closed: Track,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    run = development_run(participant, closed, on_commit)
    client = client_for(participant)
    assert "leaves the development table" in withdraw_page(client, run)
    close_submissions(bakeoff)
    assert "Withdraw the run" not in withdraw_page(client, run)
    assert client.post(f"{B}submissions/{run.pk}/withdraw/").status_code == 403


def test_the_api_withdraws_a_post_bakeoff_run_while_its_track_is_open(
    participant: User, opened: Track, on_commit: OnCommit
) -> None:
    run = post_bakeoff_run(participant, opened, on_commit)
    services.do_open_post_bakeoff(opened, open=False)
    answer = api(participant).post(API.format(run.pk), {"reason": "a bug"})
    assert (answer.status_code, answer.json()["code"]) == (403, "not_released")
    services.do_open_post_bakeoff(opened)
    answer = api(participant).post(API.format(run.pk), {"reason": "a bug"})
    assert answer.status_code == 200
    assert answer.json()["withdrawn_at"]
    assert api(participant).post(API.format(run.pk)).status_code == 400  # once only
    assert [e.details["rule"] for e in refusals()] == ["not_released"]


def test_the_api_refuses_a_development_run_after_its_phase(
    dev_corpus: Corpus,
    bakeoff: Bakeoff,
    participant: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    run = development_run(participant, closed, on_commit)
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=1)
    bakeoff.save(update_fields=["submission_deadline"])
    answer = api(participant).post(API.format(run.pk))
    assert (answer.status_code, answer.json()["code"]) == (403, "deadline_passed")
    assert "development phase" in answer.json()["detail"]
    assert [e.details["rule"] for e in refusals()] == ["late"]
