"""The contest's life: a draft until opened, registrations applied for again, runs withdrawn,
identical runs refused, the upload form offered only when a run may arrive, and form errors in
words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone, translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff import audit, services
from bakeoff.errors import DeadlinePassed, IdenticalRun, NotAllowed, Refused, RunLimitReached
from bakeoff.forms import BakeoffForm
from bakeoff.models import (
    AuditEntry,
    Bakeoff,
    Corpus,
    Registration,
    RegistrationStatus,
    Site,
    Submission,
    Track,
)
from leaderboard.models import TrackStanding
from tests.factories import (
    NOW,
    PERFECT_RUN,
    SPLIT_RUN,
    WORKED_RUN,
    make_bakeoff,
    make_corpus,
    make_site,
    track,
)
from tests.hints import ClientFor, OnCommit

# Also in the SQLite pass of make test: the embedded mode, as `make demo` runs it.
pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


# -- drafts ----------------------------------------------------------------------------------------


@pytest.fixture
def draft(organiser: User) -> Bakeoff:
    return make_bakeoff(slug="draft", organiser=organiser, opened_at=None)


def test_a_bakeoff_made_on_the_page_is_a_draft(client_for: ClientFor, organiser: User) -> None:
    start = timezone.now() + timedelta(days=1)
    times = {
        name: (start + timedelta(days=i)).strftime("%Y-%m-%dT%H:%M")
        for i, name in enumerate(
            [
                "registration_opens",
                "registration_closes",
                "training_released",
                "test_released",
                "submission_deadline",
            ]
        )
    }
    answer = client_for(organiser).post(
        "/bakeoffs/new/", {"name": "New", "slug": "new", "time_zone": "UTC", **times}
    )
    assert answer.status_code == 302
    assert Bakeoff.objects.get(slug="new").is_draft


def test_a_draft_is_its_organisers_only(
    draft: Bakeoff, client_for: ClientFor, organiser: User, participant: User, anonymous: Client
) -> None:
    corpus = make_corpus(draft)
    pages = [
        "/bakeoffs/draft/",
        f"/bakeoffs/draft/corpora/{corpus.abbreviation}/",
        "/bakeoffs/draft/results/",
        "/bakeoffs/draft/tracks/pk-closed/",
        "/bakeoffs/draft/tracks/pk-closed/results.csv",
    ]
    for page in pages:
        assert client_for(organiser).get(page).status_code == 200, page
        assert client_for(participant).get(page).status_code == 404, page
        assert anonymous.get(page).status_code == 404, page
    assert "draft" not in client_for(participant).get("/").content.decode()
    assert "/bakeoffs/draft/" in client_for(organiser).get("/").content.decode()
    client = APIClient()
    token = Token.objects.create(user=participant)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/bakeoffs/draft/tracks/pk-closed/submissions/").status_code == 404


def test_opening_needs_a_corpus_and_a_track(
    draft: Bakeoff, client_for: ClientFor, organiser: User
) -> None:
    page = (
        client_for(organiser)
        .post("/bakeoffs/draft/open/", {"confirmed": "on"}, follow=True)
        .content.decode()
    )
    assert "Add a corpus before opening" in page
    draft.refresh_from_db()
    assert draft.is_draft
    make_corpus(draft, conditions=())
    with pytest.raises(Refused, match="Add a track"):
        services.do_open_bakeoff(draft, by=organiser)


def test_opening_makes_it_public_and_is_recorded(
    draft: Bakeoff, client_for: ClientFor, organiser: User, anonymous: Client
) -> None:
    make_corpus(draft)
    assert "Open the bakeoff" in client_for(organiser).get("/bakeoffs/draft/").content.decode()
    client_for(organiser).post("/bakeoffs/draft/open/", {"confirmed": "on"})
    draft.refresh_from_db()
    assert not draft.is_draft
    assert anonymous.get("/bakeoffs/draft/").status_code == 200
    entry = AuditEntry.objects.get(bakeoff=draft, action=audit.BAKEOFF_OPENED)
    assert entry.actor == organiser
    assert entry.details["tracks"] == ["pk-closed", "pk-open"]


def test_only_an_organiser_opens(draft: Bakeoff, client_for: ClientFor, participant: User) -> None:
    make_corpus(draft)
    answer = client_for(participant).post("/bakeoffs/draft/open/", {"confirmed": "on"})
    assert answer.status_code == 404
    draft.refresh_from_db()
    assert draft.is_draft


# -- registration ---------------------------------------------------------------------------------


def test_a_refused_track_can_be_applied_for_again(
    pinned_bakeoff: Bakeoff, participant: User, organiser: User, pk_closed: Track
) -> None:
    site = make_site(pinned_bakeoff, participant, [pk_closed], approved=False)
    registration = site.registrations.get()
    services.do_refuse_registration(registration, by=organiser, reason="no paper", now=NOW)
    changes = services.do_add_registrations(site, {pk_closed: ""}, by=participant, now=NOW)
    assert changes.reapplied == [registration]
    assert changes.message() == (
        "Applied again for PKc, refused before. The organisers will decide on each track."
    )
    with translation.override("zh-hans"):  # Chinese sentences follow each other with no space
        assert changes.message() == "已重新申请 PKc（此前被拒绝）。组织者将逐项决定。"
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.PENDING
    assert registration.refusal_reason == ""
    assert services.do_approve_registration(registration, by=organiser, now=NOW)
    actions = list(AuditEntry.objects.filter(site=site).values_list("action", "details__again"))
    assert actions == [
        (audit.REGISTRATION_REFUSED, None),
        (audit.REGISTRATION_APPLIED, True),
        (audit.REGISTRATION_APPROVED, None),
    ]


def test_ticking_an_approved_track_again_changes_nothing_and_says_so(
    client_for: ClientFor, participant: User, site: Site, closed: Track
) -> None:
    page = client_for(participant).post(
        "/bakeoffs/b2026/register/", {"tracks": [closed.pk]}, follow=True
    )
    text = page.content.decode()
    assert "PKc: nothing changed (already approved)" in text
    assert "Registered" not in text.split("<main")[-1].split("</ul>")[0]
    assert site.registrations.get().status == RegistrationStatus.APPROVED


def test_approving_a_registration_says_so(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, participant: User, closed: Track
) -> None:
    site = make_site(bakeoff, participant, [closed], approved=False)
    registration = site.registrations.get()
    page = client_for(organiser).post(
        f"/bakeoffs/b2026/registrations/{registration.pk}/decide/",
        {"decision": "approve"},
        follow=True,
    )
    assert "Approved: Team A for PKc." in page.content.decode()
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.APPROVED
    entry = AuditEntry.objects.get(action=audit.REGISTRATION_APPROVED)
    assert entry.actor == organiser and entry.site == site and entry.track == closed


def test_a_bakeoff_form_error_speaks_words_not_a_constraint_name(bakeoff: Bakeoff) -> None:
    data = {
        "name": bakeoff.name,
        "slug": bakeoff.slug,
        "time_zone": "UTC",
        "registration_opens": "2026-05-02T00:00",
        "registration_closes": "2026-05-01T00:00",
        "training_released": "2026-05-01T00:00",
        "test_released": "2026-05-03T00:00",
        "submission_deadline": "2026-05-02T00:00",
    }
    form = BakeoffForm(data, instance=bakeoff)
    assert not form.is_valid()
    errors = str(form.errors)
    assert "Registration must close after it opens." in errors
    assert "The deadline must follow the test data." in errors
    for constraint in Bakeoff._meta.constraints:
        assert constraint.name not in errors


# -- withdrawals and identical runs ----------------------------------------------------------------


def submit(user: User, the_track: Track, text: str, **kwargs: object) -> Submission:
    return services.submit_run(user, the_track, text.encode(), now=NOW, **kwargs)  # type: ignore[arg-type]


def test_an_identical_run_is_refused_naming_the_earlier_one(
    participant: User, pk_closed: Track, team: Site
) -> None:
    first = submit(participant, pk_closed, PERFECT_RUN)
    with pytest.raises(IdenticalRun, match="identical to your run 1 of PKc") as refused:
        submit(participant, pk_closed, PERFECT_RUN)
    assert refused.value.fields["run"] == first.pk
    entry = AuditEntry.objects.get(action=audit.RUN_REFUSED)
    assert entry.details["rule"] == "identical"
    assert entry.details["checksum"] == first.checksum
    assert entry.details["received_at"].startswith("2026-03-01T12:00:00")


def test_withdrawing_frees_the_slot_and_keeps_the_run(
    participant: User, pk_closed: Track, team: Site
) -> None:
    first = submit(participant, pk_closed, PERFECT_RUN)
    submit(participant, pk_closed, WORKED_RUN)
    with pytest.raises(RunLimitReached):
        submit(participant, pk_closed, SPLIT_RUN)
    services.do_withdraw_run(first, user=participant, now=NOW, reason="a bug")
    third = submit(participant, pk_closed, SPLIT_RUN)
    assert third.run_number == 1  # the freed slot
    assert team.submissions.count() == 3
    assert Submission.objects.get(pk=first.pk).withdrawn_at == NOW
    # the withdrawn run's text may come back: it is not ranked twice
    services.do_withdraw_run(third, user=participant, now=NOW)
    assert submit(participant, pk_closed, PERFECT_RUN).run_number == 1


def test_a_withdrawn_run_is_never_ranked(
    participant: User, pk_closed: Track, team: Site, on_commit: OnCommit
) -> None:
    with on_commit():
        run = submit(participant, pk_closed, PERFECT_RUN)
    assert TrackStanding.objects.filter(submission=run).exists()
    with on_commit():
        services.do_withdraw_run(run, user=participant, now=NOW)
    assert not TrackStanding.objects.filter(submission=run).exists()
    assert not TrackStanding.objects.filter(track=pk_closed, kind="run").exists()


def test_a_run_cannot_be_withdrawn_after_the_deadline(
    participant: User, pk_closed: Track, team: Site
) -> None:
    run = submit(participant, pk_closed, PERFECT_RUN)
    later = pk_closed.corpus.bakeoff.submission_deadline + timedelta(seconds=1)
    with pytest.raises(DeadlinePassed):
        services.do_withdraw_run(run, user=participant, now=later)


def test_only_the_runs_site_withdraws_it(
    participant: User, outsider: User, organiser: User, pk_closed: Track, team: Site
) -> None:
    run = submit(participant, pk_closed, PERFECT_RUN)
    for someone in (outsider, organiser):
        with pytest.raises(NotAllowed):
            services.do_withdraw_run(run, user=someone, now=NOW)


def test_the_run_page_withdraws(
    client_for: ClientFor, participant: User, outsider: User, site: Site, closed: Track
) -> None:
    run = services.submit_run(participant, closed, PERFECT_RUN.encode())
    page = f"/bakeoffs/b2026/submissions/{run.pk}/"
    assert "Withdraw the run" in client_for(participant).get(page).content.decode()
    assert client_for(outsider).post(page + "withdraw/").status_code == 404
    answer = client_for(participant).post(page + "withdraw/", {"reason": "a bug"}, follow=True)
    assert "withdrawn" in answer.content.decode()
    run.refresh_from_db()
    assert run.withdrawn_at is not None
    entry = AuditEntry.objects.get(action=audit.RUN_WITHDRAWN)
    assert entry.details["reason"] == "a bug"


def test_the_api_withdraws(participant: User, site: Site, closed: Track) -> None:
    run = services.submit_run(participant, closed, PERFECT_RUN.encode())
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=participant).key}")
    url = f"/api/bakeoffs/b2026/tracks/pk-closed/submissions/{run.pk}/withdraw/"
    answer = client.post(url)
    assert answer.status_code == 200
    assert answer.json()["withdrawn_at"]
    assert client.post(url).status_code == 400


# -- the upload form -------------------------------------------------------------------------------


def upload_page(client: Client, slug: str = "pk-closed") -> str:
    return client.get(f"/bakeoffs/b2026/tracks/{slug}/upload/").content.decode()


def test_the_upload_form_is_not_offered_at_the_run_limit(
    client_for: ClientFor, participant: User, site: Site, closed: Track
) -> None:
    client = client_for(participant)
    assert 'type="file"' in upload_page(client)
    for text in (PERFECT_RUN, WORKED_RUN):
        services.submit_run(participant, closed, text.encode())
    page = upload_page(client)
    assert 'type="file"' not in page
    assert "has the 2 runs allowed for PKc" in page


@pytest.mark.parametrize(
    ("limit", "offered", "refused"),
    [
        (
            1,
            "Your site has the 1 run allowed for PKc. Withdraw it",
            "Your site has already submitted the 1 run allowed for PKc.",
        ),
        (
            2,
            "Your site has the 2 runs allowed for PKc. Withdraw one",
            "Your site has already submitted the 2 runs allowed for PKc.",
        ),
    ],
)
def test_the_run_limit_reads_in_the_singular_and_in_the_plural(
    client_for: ClientFor,
    participant: User,
    site: Site,
    closed: Track,
    limit: int,
    offered: str,
    refused: str,
) -> None:
    closed.max_runs = limit
    closed.save()
    for text in (PERFECT_RUN, WORKED_RUN)[:limit]:
        services.submit_run(participant, closed, text.encode())
    client = client_for(participant)
    assert offered in upload_page(client)
    with pytest.raises(RunLimitReached) as over:
        services.submit_run(participant, closed, SPLIT_RUN.encode())
    assert over.value.detail == refused
    chinese = client.get(
        "/bakeoffs/b2026/tracks/pk-closed/upload/", headers={"accept-language": "zh-CN"}
    ).content.decode()
    assert f"贵参赛单位已提交 PKc 允许的 {limit} 组结果。" in chinese


def test_the_upload_form_is_not_offered_after_the_deadline(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=1)
    bakeoff.save()
    page = upload_page(client_for(participant))
    assert 'type="file"' not in page
    assert "The submission deadline was" in page


# -- system descriptions --------------------------------------------------------------------------


def test_an_open_track_needs_a_description(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    make_site(bakeoff, participant, [track(corpus, "open")])
    client = client_for(participant)
    url = "/bakeoffs/b2026/tracks/pk-open/upload/"
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode())
    assert (
        "PKo is an open track: describe the system"
        in client.post(url, {"file": run}).content.decode()
    )
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode())
    answer = client.post(url, {"file": run, "description": "CRF; the Sinica lexicon."})
    assert answer.status_code == 302
    stored = Submission.objects.get(site__members=participant)
    assert stored.description == "CRF; the Sinica lexicon."
    entry = AuditEntry.objects.get(action=audit.RUN_ACCEPTED)
    assert entry.details["description"] == "CRF; the Sinica lexicon."


def test_the_api_takes_and_shows_the_description(
    participant: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    make_site(bakeoff, participant, [track(corpus, "open")])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=participant).key}")
    url = "/api/bakeoffs/b2026/tracks/pk-open/submissions/"
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode())
    refused = client.post(url, {"file": run}, format="multipart")
    assert refused.status_code == 400
    assert "describe the system" in refused.json()["detail"]
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode())
    answer = client.post(url, {"file": run, "description": "HMM"}, format="multipart")
    assert answer.status_code == 201
    assert answer.json()["description"] == "HMM"


# -- refused uploads in the audit trail ------------------------------------------------------------


def test_a_strangers_refused_upload_leaves_no_entry(
    outsider: User, pk_closed: Track, team: Site
) -> None:
    with pytest.raises(Refused):
        submit(outsider, pk_closed, PERFECT_RUN)
    assert not AuditEntry.objects.filter(action=audit.RUN_REFUSED).exists()


def test_a_late_upload_is_recorded_with_its_checksum(
    participant: User, pk_closed: Track, team: Site
) -> None:
    later = pk_closed.corpus.bakeoff.submission_deadline + timedelta(seconds=3)
    with pytest.raises(DeadlinePassed):
        services.submit_run(participant, pk_closed, PERFECT_RUN.encode(), now=later)
    entry = AuditEntry.objects.get(action=audit.RUN_REFUSED)
    assert entry.details["rule"] == "late"
    assert entry.details["checksum"].startswith("sha256:")
    assert entry.site == team and entry.actor == participant
    assert Registration.objects.filter(site=team).exists()


def test_opening_asks_again_and_says_it_cannot_be_undone(
    draft: Bakeoff, client_for: ClientFor, organiser: User
) -> None:
    make_corpus(draft)
    client = client_for(organiser)
    for answer in (
        client.get("/bakeoffs/draft/open/", headers={"accept-language": "zh-CN"}),
        client.post("/bakeoffs/draft/open/", headers={"accept-language": "zh-CN"}),
    ):
        page = answer.content.decode()
        assert answer.status_code == 200
        assert "无法撤销" in page and 'name="confirmed" value="on"' in page
        assert "PKc" in page
    draft.refresh_from_db()
    assert draft.is_draft  # asked, not opened
    client.post("/bakeoffs/draft/open/", {"confirmed": "on"})
    draft.refresh_from_db()
    assert not draft.is_draft


def test_the_list_of_bakeoffs_has_an_address_of_its_own(anonymous: Client) -> None:
    answer = anonymous.get("/bakeoffs/")
    assert answer.status_code == 301 and answer["Location"] == "/"
