"""Mail on the production path: recorded in PostgreSQL, sent by the worker through a real SMTP
server (aiosmtpd on 127.0.0.1, see smtp.py), read back from what the server received."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.test import Client

from notifications.models import Mail

from .smtp import SMTPServer, header, text_of

pytestmark = [pytest.mark.production, pytest.mark.django_db(transaction=True)]

LINK = re.compile(r"https?://[^/\s]+(/[^\s]+/)")


def test_sign_up_sends_the_verification_through_smtp(
    media: Path,
    worker: subprocess.Popen[bytes],
    smtp_server: SMTPServer,
    wait_for: Callable[..., None],
) -> None:
    client = Client()
    answer = client.post(
        "/accounts/signup/",
        {
            "email": "lin@example.org",
            "password1": "a long enough pass 1",
            "password2": "a long enough pass 1",
        },
    )
    assert answer.status_code == 302
    message = smtp_server.wait_for("lin@example.org", "Confirm")
    found = LINK.search(text_of(message))
    assert found is not None
    path = found.group(1)
    assert path.startswith("/accounts/confirm-email/")
    assert client.post(path).status_code == 302
    user = User.objects.get(email="lin@example.org")
    assert EmailAddress.objects.get(user=user).verified
    wait_for(lambda: Mail.objects.get(kind="account").status == "sent", what="the record")


def test_a_run_sends_its_receipt_and_its_score_through_smtp(
    media: Path,
    worker: subprocess.Popen[bytes],
    smtp_server: SMTPServer,
    wait_for: Callable[..., None],
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import WORKED_RUN, make_bakeoff, make_corpus, make_site, track

    participant = User.objects.create_user("pat", "pat@example.org", "pw-pat")
    bakeoff = make_bakeoff(slug="mailprod")
    closed = track(make_corpus(bakeoff))
    make_site(bakeoff, participant, [closed])
    client = Client()
    client.force_login(participant)
    answer = client.post(
        f"/bakeoffs/mailprod/tracks/{closed.slug}/upload/",
        {"file": SimpleUploadedFile("run.txt", WORKED_RUN.encode())},
    )
    assert answer.status_code == 302
    receipt = text_of(smtp_server.wait_for("pat@example.org", "Receipt: PKc run 1 received"))
    from bakeoff.models import Submission

    assert f"Checksum:     {Submission.objects.get(kind='run').checksum}" in receipt
    assert "UTC" in receipt and "(Asia/Shanghai)" in receipt
    scored = smtp_server.wait_for("pat@example.org", "PKc run 1 scored: F = 0.815")
    assert "Recall (R)     0.786" in text_of(scored)
    assert header(scored, "Subject").startswith("[Bakeoff 2026] ")


def test_an_invitation_arrives_through_smtp_and_its_link_makes_the_account(
    media: Path,
    worker: subprocess.Popen[bytes],
    smtp_server: SMTPServer,
    wait_for: Callable[..., None],
) -> None:
    from bakeoff import services
    from bakeoff.models import Site
    from tests.factories import make_bakeoff

    bakeoff = make_bakeoff(slug="invited")
    site = Site.objects.create(
        bakeoff=bakeoff, name="北大组", institution="PKU", country="CN", commercial_product=False
    )
    services.do_invite(bakeoff, "lin@example.org", site=site)
    message = smtp_server.wait_for("lin@example.org", "You are invited to join")
    assert header(message, "Subject") == "[Bakeoff 2026] You are invited to join 北大组"
    found = LINK.search(text_of(message))
    assert found is not None
    client = Client()
    answer = client.post(
        found.group(1),
        {
            "username": "lin",
            "password1": "a long enough pass 1",
            "password2": "a long enough pass 1",
        },
    )
    assert answer.status_code == 302
    assert site.members.get().email == "lin@example.org"
