"""The account page: the personal API token, created and revoked here, the reader's language
and time zone, and the user name; the language menu of every page posts to ``set_language``."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language
from rest_framework.authtoken.models import Token

from .. import clock
from ..access import AuthenticatedHttpRequest
from ..errors import Refused
from ..forms import ReaderSettingsForm, UserNameForm
from ..middleware import remember
from ..models import ReaderSettings, Registration, RegistrationStatus, SubmissionPhase
from ..services.phases import PHASES


@login_required
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    token = Token.objects.filter(user=request.user).first()
    chosen = ReaderSettings.objects.filter(user=request.user).first()
    initial = {"language": chosen.language, "time_zone": chosen.time_zone} if chosen else {}
    form = ReaderSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        language, zone = form.cleaned_data["language"], form.cleaned_data["time_zone"]
        ReaderSettings.objects.update_or_create(
            user=request.user, defaults={"language": language, "time_zone": zone}
        )
        remember(request, language=language, time_zone=zone)
        response = redirect("account")
        if language:
            translation.activate(language)
            _set_language_cookie(response, language)
        else:
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
        messages.success(request, _("Your settings were saved."))
        return response
    return render(
        request,
        "bakeoff/account.html",
        {
            "token": token,
            "settings_form": form,
            "upload_path": _example_upload_path(request),
            "example_phase": _example_phase(request),
            "phases": SubmissionPhase.values,
        },
    )


def _example_upload_path(request: AuthenticatedHttpRequest) -> str:
    """Where the API example uploads: a track the reader's site is approved for (the newest such
    registration), so that the command runs as shown; else a placeholder to fill in."""
    registration = (
        Registration.objects.filter(site__members=request.user, status=RegistrationStatus.APPROVED)
        .select_related("track__corpus__bakeoff")
        .order_by("-created_at", "-pk")
        .first()
    )
    if registration is None:
        return "/api/bakeoffs/BAKEOFF/tracks/TRACK/submissions/"
    track = registration.track
    return reverse(
        "api:submissions", kwargs={"bakeoff": track.corpus.bakeoff.slug, "track": track.slug}
    )


def _example_phase(request: AuthenticatedHttpRequest) -> str:
    """The phase the example uploads to: the first the reader's newest approved track accepts
    now (the phases' own rules say which), so that a post-bakeoff participant who copies the
    example is not told the deadline passed; ``test`` when none is open."""
    registration = (
        Registration.objects.filter(site__members=request.user, status=RegistrationStatus.APPROVED)
        .select_related("track__corpus__bakeoff")
        .order_by("-created_at", "-pk")
        .first()
    )
    if registration is None:
        return SubmissionPhase.TEST.value
    now = clock.now()
    for phase, rules in PHASES.items():
        try:
            rules.check_can_submit(request.user, registration.track, now)
        except Refused:
            continue
        return phase.value
    return SubmissionPhase.TEST.value


def _set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@csrf_exempt
@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language menu: Django's view (a cookie, back to the same page), and for a logged-in
    reader the choice kept in their settings as well.

    Exempt from the CSRF middleware for anonymous readers only: their menu is on pages that are
    the same for every anonymous reader (kept by the proxy, leaderboard/served.py), so it carries
    no token, and a forged choice changes nothing but a cookie. A signed-in reader's choice
    writes their settings: the token is checked as the middleware would."""
    if request.user.is_authenticated:
        checked = CsrfViewMiddleware(lambda _request: HttpResponse())
        refused = checked.process_view(request, lambda _request: HttpResponse(), (), {})
        if refused is not None:
            return refused
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        ReaderSettings.objects.update_or_create(user=request.user, defaults={"language": language})
        chosen = ReaderSettings.objects.get(user=request.user)
        remember(request, language=language, time_zone=chosen.time_zone)
    return response


@login_required
@require_POST
def token_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    replaced, _kinds = Token.objects.filter(user=request.user).delete()
    Token.objects.create(user=request.user)
    messages.success(
        request,
        _("A new token was created; the old one no longer works.")
        if replaced
        else _("Your first token was created."),
    )
    return redirect("account")


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest) -> HttpResponse:
    Token.objects.filter(user=request.user).delete()
    messages.success(request, _("Your token was revoked."))
    return redirect("account")


@login_required
def account_name(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = UserNameForm(
        request.POST or None, user=request.user, initial={"username": request.user.username}
    )
    if request.method == "POST" and form.is_valid():
        request.user.username = form.cleaned_data["username"]
        request.user.save(update_fields=["username"])
        messages.success(request, _("Your user name was changed."))
        return redirect("account")
    return render(request, "bakeoff/account_name.html", {"form": form})
