"""How django-allauth fits the platform: who must verify an address before logging in.

Accounts made by an administrator without any e-mail address (``createsuperuser``, scripts)
have nothing to verify and log in as before; every account with an address, and so every
account made by sign-up, must verify it first.
"""

from __future__ import annotations

from allauth.account import stages
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.http import HttpResponse


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
