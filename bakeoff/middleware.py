"""The reader's language and time zone.

LocaleMiddleware (before this one) picks the language from the cookie of the language menu, else
from Accept-Language. A logged-in reader who chose a language (``ReaderSettings``) keeps it on
every browser: it is copied into the session at login and whenever it changes, so that reading it
costs no query. The zone comes from the reader's settings, else from the cookie ``bakeoff_tz``
that the browser's script (``static/bakeoff/reader.js``) writes with the zone the browser reports.
The REST API answers in English whatever the reader asks: scripts read its ``code`` and its
English ``detail``; an error adds its ``message`` in the language of Accept-Language
(``bakeoff.error_codes.message``). At login the language of the page is kept too
(``pages_language``): mail is written in it when the reader chose no language.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers

from .zones import known_zones

ZONE_COOKIE = "bakeoff_tz"
API_PREFIX = "/api/"
SESSION_LANGUAGE = "reader_language"
SESSION_ZONE = "reader_zone"


def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    if not name or len(name) > 64 or name not in known_zones():
        return None
    return zoneinfo.ZoneInfo(name)


def remember(request: HttpRequest, *, language: str, time_zone: str) -> None:
    """Puts a reader's choices in the session (at login, and when they change)."""
    request.session[SESSION_LANGUAGE] = language
    request.session[SESSION_ZONE] = time_zone


class ReaderMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(API_PREFIX):
            translation.activate("en")
            request.LANGUAGE_CODE = "en"
            timezone.deactivate()
            return self.get_response(request)
        session: Any = getattr(request, "session", {})
        language = session.get(SESSION_LANGUAGE, "")
        if language and language in dict(settings.LANGUAGES):
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        zone = zone_named(session.get(SESSION_ZONE, "")) or zone_named(
            request.COOKIES.get(ZONE_COOKIE, "")
        )
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        return self.get_response(request)


def language_of_the_page(request: HttpRequest | None) -> str:
    """The language a request's page is read in, as the middlewares above decided; "" when there
    is no page to read: a login without one (a test's ``force_login`` runs no middleware) or
    through the API, whose English is imposed, not what the reader reads."""
    if request is None or request.path_info.startswith(API_PREFIX):
        return ""
    language = getattr(request, "LANGUAGE_CODE", "")
    return language if language in dict(settings.LANGUAGES) else ""


def remember_at_login(sender: object, request: HttpRequest, user: Any, **kwargs: object) -> None:
    """``user_logged_in``: the reader's choices follow them to every browser they log in on, and
    the language of the page they logged in on is kept for their mail (if they chose none)."""
    from .models import ReaderSettings

    chosen = ReaderSettings.objects.filter(user=user).first()
    if chosen is not None:
        remember(request, language=chosen.language, time_zone=chosen.time_zone)
    language = language_of_the_page(request)
    if language and (chosen is None or chosen.pages_language != language):
        ReaderSettings.objects.update_or_create(user=user, defaults={"pages_language": language})


class PrivateApiMiddleware:
    """An API answer depends on who asks (a site's live scores, its runs): a shared cache in front
    must neither serve one reader's answer to another (``Vary: Authorization``, and ``Cookie``
    for the session) nor keep one given with credentials (``Cache-Control: private``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path_info.startswith(API_PREFIX):
            patch_vary_headers(response, ("Authorization", "Cookie"))
            user = getattr(request, "user", None)
            if "HTTP_AUTHORIZATION" in request.META or getattr(user, "is_authenticated", False):
                patch_cache_control(response, private=True)
        return response
