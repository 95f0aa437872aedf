"""The organiser's day (issue 28): a registration is refused with a reason, which a refusal made
before reasons were required can be given later (and its site is mailed it)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage

from bakeoff import audit, services
from bakeoff.errors import Refused
from bakeoff.models import AuditEntry, Bakeoff, Corpus, Registration, RegistrationStatus
from tests.factories import make_site, track
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending(bakeoff: Bakeoff, corpus: Corpus, participant: User) -> Registration:
    participant.email = "pat@example.org"
    participant.save()
    make_site(bakeoff, participant, [track(corpus)], name="SXU", approved=False)
    return Registration.objects.get()


def test_a_refusal_needs_a_reason(
    pending: Registration, organiser: User, client_for: ClientFor
) -> None:
    with pytest.raises(Refused, match="Say why"):
        services.do_refuse_registration(pending, by=organiser, reason="  ")
    answer = client_for(organiser).post(
        f"/bakeoffs/b2026/registrations/{pending.pk}/decide/",
        {"decision": "refuse", "reason": ""},
        headers={"accept-language": "zh-CN"},
        follow=True,
    )
    assert "请说明拒绝报名的原因：该参赛单位会收到通知。" in answer.content.decode()
    pending.refresh_from_db()
    assert pending.status == RegistrationStatus.PENDING


def test_a_refusal_without_a_reason_is_given_one_later_and_the_site_is_told(
    pending: Registration,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    # refused before reasons were required
    Registration.objects.filter(pk=pending.pk).update(status=RegistrationStatus.REFUSED)
    page = client_for(organiser).get("/bakeoffs/b2026/registrations/").content.decode()
    assert f"/registrations/{pending.pk}/reason/" in page
    with on_commit():
        answer = client_for(organiser).post(
            f"/bakeoffs/b2026/registrations/{pending.pk}/reason/",
            {"reason": "No statement of resources."},
        )
    assert answer.status_code == 302
    pending.refresh_from_db()
    assert pending.refusal_reason == "No statement of resources."
    [mail] = mailoutbox
    assert mail.to == ["pat@example.org"]
    assert "Reason: No statement of resources." in str(mail.body)
    entry = AuditEntry.objects.get(action=audit.REGISTRATION_REFUSED)
    assert entry.details["reason"] == "No statement of resources." and entry.actor == organiser
    # given once: a second reason changes nothing
    assert not services.do_give_refusal_reason(pending, by=organiser, reason="Another.")
    page = client_for(organiser).get("/bakeoffs/b2026/registrations/").content.decode()
    assert f"/registrations/{pending.pk}/reason/" not in page


def test_a_new_bakeoffs_zone_is_the_browsers(organiser: User, client_for: ClientFor) -> None:
    client = client_for(organiser)
    client.cookies["bakeoff_tz"] = "Asia/Shanghai"  # what the browser reported
    page = client.get("/bakeoffs/new/", headers={"accept-language": "zh-CN"}).content.decode()
    assert '<option value="Asia/Shanghai" selected>' in page
    client.cookies.pop("bakeoff_tz")
    page = client_for(organiser).get("/bakeoffs/new/").content.decode()
    assert '<option value="UTC" selected>' in page  # nothing reported: the server's
