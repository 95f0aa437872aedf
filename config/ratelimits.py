"""Login lockout by django-axes: how it names the client and the account, and what a locked-out
client is answered (429 with Retry-After; JSON on the API); and the answer to allauth's own rate
limits (sign-up, password reset, failed logins per address), with Retry-After too."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from bakeoff import error_codes

# allauth's rate-limited actions by the name of the page that consumes them.
ALLAUTH_ACTIONS = {
    "account_login": "login_failed",
    "account_signup": "signup",
    "account_reset_password": "reset_password",
    "account_reset_password_from_key": "reset_password_from_key",
    "account_confirm_email": "confirm_email",
    "account_email": "confirm_email",
}


def login_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The account a login names, as the lockout keys it: Django's form and the admin send
    ``username``, allauth ``username`` or ``email`` (its form field is ``login``)."""
    for source in (credentials or {}, request.POST if request is not None else {}):
        for field in ("username", "email", "login"):
            value = source.get(field)
            if value:
                return account_key(str(value))
    return None


def account_key(typed: str) -> str:
    """The lockout's key for what was typed in the login field: the account's user name
    (case-folded) whether its user name or one of its addresses was typed, in any case, so that
    failures under one name lock the others out too. What names no account is kept as typed."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    typed = typed.strip().casefold()
    users = get_user_model().objects
    if "@" in typed:
        address = EmailAddress.objects.filter(email__iexact=typed).select_related("user").first()
        user = address.user if address else users.filter(email__iexact=typed).first()
    else:
        user = users.filter(username__iexact=typed).first()
    return user.get_username().casefold() if user is not None else typed


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    detail = (
        f"Too many failed logins for this account from your address: try again in "
        f"{max(1, seconds // 60)} minutes, or reset your password."
    )
    return too_many(request, "too_many_logins", detail, seconds)


def too_many(request: HttpRequest, code: str, detail: str, seconds: int) -> HttpResponse:
    """Every 429 of the account pages: JSON to a script, the refusal page to a browser, and
    Retry-After to both."""
    answer: HttpResponse
    if request.path.startswith("/api/") or "json" in request.headers.get("Accept", ""):
        answer = JsonResponse(
            {"code": code, "detail": detail, "message": error_codes.message(code, request)},
            status=429,
        )
    else:
        answer = render(request, "bakeoff/refused.html", {"reason": detail}, status=429)
    answer["Retry-After"] = str(seconds)
    return answer


def retry_after_allauth(url_name: str | None) -> int:
    """Seconds after which every limit of the page's action has let go: the longest window of its
    rates (allauth counts in sliding windows), a minute when the page is not known."""
    from allauth.core.internal.ratelimit import parse_rates

    rates = settings.ACCOUNT_RATE_LIMITS.get(ALLAUTH_ACTIONS.get(url_name or "", ""), "")
    durations = [int(rate.duration) for rate in parse_rates(rates or None)]
    return max(durations, default=60)


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """allauth's 429 (``config.urls.handler429``), with Retry-After, in the platform's page."""
    match = getattr(request, "resolver_match", None)
    seconds = retry_after_allauth(match.url_name if match else None)
    minutes = max(1, -(-seconds // 60))
    detail = ngettext(
        "Too many attempts from your address: try again in %(minutes)d minute.",
        "Too many attempts from your address: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    return too_many(request, "too_many_requests", detail, seconds)
