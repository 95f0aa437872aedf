"""How django-allauth fits the platform: who must verify an address before logging in, and how
its mails (verification, password reset, e-mail change) are sent: recorded and sent by the mail
task after the commit, like every other mail (``notifications.mail``).

Accounts made by an administrator without any e-mail address (``createsuperuser``, scripts)
have nothing to verify and log in as before; every account with an address, and so every
account made by sign-up, must verify it first.
"""

from __future__ import annotations

from typing import Any

# allauth's flows first: importing its stages module first is a circular import (a worker, which
# loads no URLs, imports this module first when the system checks ask for the adapter).
import allauth.account.internal.flows  # noqa: F401
from allauth.account import stages
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.core import context as allauth_context
from django.contrib.auth.models import User
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpResponse
from django.template.loader import render_to_string

from notifications import mail


class EmailVerificationStage(stages.EmailVerificationStage):  # type: ignore[misc]
    def handle(self) -> tuple[HttpResponse | None, bool]:
        user = self.login.user
        if (
            user is not None
            and not getattr(user, "email", "")
            and not EmailAddress.objects.filter(user_id=user.pk).exists()
        ):
            return None, True
        response, cont = super().handle()
        return response, cont


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def get_login_stages(self) -> list[str]:
        return [
            f"{__name__}.EmailVerificationStage"
            if path == "allauth.account.stages.EmailVerificationStage"
            else path
            for path in super().get_login_stages()
        ]

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        request = allauth_context.request
        data = {"request": request, "email": email, "current_site": get_current_site(request)}
        data.update(context)
        message = self.render_mail(template_prefix, email, data)
        text = str(message.body)
        html = render_to_string("email/message.html", {"subject": message.subject, "text": text})
        mail.record(
            "account",
            email,
            subject=str(message.subject),
            text=text,
            html=html,
            user=User.objects.filter(email__iexact=email).first(),
        )
