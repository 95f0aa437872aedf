"""How django-allauth fits the platform: who must verify an address before logging in, and how
its mails (verification, password reset, e-mail change) are sent: recorded and sent by the mail
task after the commit, like every other mail (``notifications.mail``).

Accounts made by an administrator without any e-mail address (``createsuperuser``, scripts)
have nothing to verify and log in as before; every account with an address, and so every
account made by sign-up, must verify it first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

# allauth's flows first: importing its stages module first is a circular import (a worker, which
# loads no URLs, imports this module first when the system checks ask for the adapter).
import allauth.account.internal.flows  # noqa: F401
from allauth.account import stages
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.core import context as allauth_context
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_stubs_ext import StrOrPromise

from notifications import mail

# Words of allauth's pages whose Chinese in allauth's own catalogues keeps English ("用户名或email",
# "Email地址"): ours come first (LOCALE_PATHS), and naming them here keeps them in ours.
ALLAUTH_WORDS = (
    _("Username or email"),
    _("Email Addresses"),
    _("Email Address"),
    _("You cannot activate two-factor authentication until you have verified your email address."),
    _(
        "An account already exists with this email address. Please sign in to that account "
        "first, then connect your %s account."
    ),
    _("Your account has no verified email address."),
    _("The following email addresses are associated with your account:"),
    _("Primary"),
    _("Re-send Verification"),
    _("Add Email Address"),
    _("Add Email"),
    _("Do you really want to remove the selected email address?"),
    _("Email Changed"),
    _("Your email has been confirmed."),
    _("Email Confirmation"),
    _("Please Confirm Your Email Address"),
    _("Email Removed"),
    _("Current email"),
    _("New Password (again)"),  # allauth's 繁體 puts ASCII parentheses around 再次輸入
    _("Change Email"),
    _("Confirm Email Address"),
    _("Primary email address set."),
    _("Verify Your Email Address"),
)


@dataclass(frozen=True)
class Platform:
    """What allauth's mails call the site (``current_site``): the platform's name, as its pages'
    header says it in the reader's language, and the host of ``SITE_URL``, never the host a
    request happened to name (``127.0.0.1:8100``)."""

    name: StrOrPromise
    domain: str
    url: str


def platform() -> Platform:
    url = settings.SITE_URL.rstrip("/")
    return Platform(name=_("Bakeoff"), domain=urlsplit(url).netloc, url=url + "/")


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

    def format_email_subject(self, subject: str) -> str:
        """The platform's name in the reader's language first, as every other mail's subject
        starts with its bakeoff's name (not ``ACCOUNT_EMAIL_SUBJECT_PREFIX``'s English)."""
        return f"[{platform().name}] {subject}"

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        request = allauth_context.request
        data = {"request": request, "email": email, "current_site": platform()}
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


# allauth's Chinese catalogues leave a space between two sentences ("忘記您的密碼了嗎？ 請在下方")
# and end one with a Latin full stop ("请登录."): ours translate these sentences of its pages and
# mails again, and the project's catalogues come first (LOCALE_PATHS).
gettext_noop("Already have an account? Then please %(link)ssign in%(end_link)s.")
gettext_noop(
    "Forgotten your password? Enter your email address below, and we'll send you an email "
    "allowing you to reset it."
)
# Its traditional-Chinese verification mail says "Email" in English.
gettext_noop(
    "You're receiving this email because user %(user_display)s has given your email address to "
    "register an account on %(site_domain)s."
)
