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

from .smtp import SMTPServer, text_of

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
            "username": "lin",
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
    user = User.objects.get(username="lin")
    assert EmailAddress.objects.get(user=user).verified
    wait_for(lambda: Mail.objects.get(kind="account").status == "sent", what="the record")
