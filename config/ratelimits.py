"""Login lockout by django-axes: how it names the client and the account, and what a locked-out
client is answered (429 with Retry-After; JSON on the API)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def login_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The account a login names: Django's form and the admin send ``username``, allauth
    ``username`` or ``email`` (its form field is ``login``)."""
    for source in (credentials or {}, request.POST if request is not None else {}):
        for field in ("username", "email", "login"):
            value = source.get(field)
            if value:
                return str(value).strip().casefold()
    return None


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    detail = (
        f"Too many failed logins for this account from your address: try again in "
        f"{max(1, seconds // 60)} minutes, or reset your password."
    )
    answer: HttpResponse
    if request.path.startswith("/api/") or "json" in request.headers.get("Accept", ""):
        answer = JsonResponse({"code": "too_many_logins", "detail": detail}, status=429)
    else:
        answer = render(request, "bakeoff/refused.html", {"reason": detail}, status=429)
    answer["Retry-After"] = str(seconds)
    return answer
