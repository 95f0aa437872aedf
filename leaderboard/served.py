"""Serving a published representation (``published.representation``): a returning reader gets
304, the bytes come from the cache when another reader of the same class had them rendered, and
the headers say what a cache in front may do with them (docs/deployment.md, "Published pages").

- Every answer carries the representation's ETag and Last-Modified (when its key was first
  served); If-None-Match and If-Modified-Since give 304. A page's ETag for a signed-in reader
  also names who (their name and forms are on the page).
- Shared bytes: an export or a plot, for every reader of its class; a page, whole for anonymous
  readers, and for a signed-in reader all but its header (their name and forms, rendered for them
  into the page of their class: ``personal_page``); never with a message waiting to be shown.
  The cache is config/cache.py's, shared by every web process; a cache away answers nothing, and
  the page is rendered as before.
- The proxy may keep only the public representation asked for without a session, credentials or
  a message (``Cache-Control: public``, a short max-age and stale-while-revalidate); everything
  else is ``private, no-cache``: the browser asks again, with the ETag.
- The cached bytes of a page are made per request again where a request's own value is in them:
  the CSP nonce of the inline style is replaced by this request's. Bytes with a CSRF token or a
  cookie set are never kept.
"""

from __future__ import annotations

import hashlib
import io
import secrets
import sys
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.safestring import SafeString, mark_safe

from bakeoff.models import Track

from . import versions
from .models import ResultsVersion
from .published import REPRESENTATION_FORMAT, Representation

# A version's bytes never change; the cache lets them go after a week without a reader.
KEEP_SECONDS = 7 * 24 * 3600
# What a response keeps of its headers in the cache besides its type.
KEPT_HEADERS = ("Content-Disposition",)
# A signed-in reader's page kept around its header's place (``personal_page``): its format, within
# the representation's (the page's parts as bytes since 2)
PAGE_FORMAT = (REPRESENTATION_FORMAT, 2)
# What ``serve`` read from the cache for this request, for ``fragment``: an attribute of the request
_FETCHED = "_published_fetched"


def _anonymous(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return not getattr(user, "is_authenticated", False) and "HTTP_AUTHORIZATION" not in request.META


def _messages_waiting(request: HttpRequest) -> bool:
    # len() reads the stored messages without marking them shown
    return hasattr(request, "_messages") and len(messages.get_messages(request)) > 0


def _etag(request: HttpRequest, representation: Representation, page: bool) -> str:
    if not page or _anonymous(request):
        return representation.etag
    # what the reader's own header shows: their name, the admin link, the form's token
    user = getattr(request, "user", None)
    name = user.get_username() if user is not None else ""
    admin = getattr(user, "is_superuser", False)
    token = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    who = f"{representation.etag}:{getattr(user, 'pk', '')}:{name}:{admin}:{token}"
    return '"' + hashlib.sha256(who.encode()).hexdigest()[:32] + '"'


def _first_served(representation: Representation, found: object) -> float:
    """When this representation's key was first served (its Last-Modified): kept in the cache
    beside the bytes (``found``: what the cache answered for it); now, when it has no answer."""
    marker = f"{representation.key}:t"
    if isinstance(found, int | float):
        return float(found)
    now = time.time()
    if cache.add(marker, now, KEEP_SECONDS):
        return now
    found = cache.get(marker)  # another process was first
    return float(found) if isinstance(found, int | float) else now


def page_shared(request: HttpRequest) -> bool:
    """Whether a published page's bytes are the same for this reader as for every reader of
    their class (an anonymous reader without a message waiting)."""
    return (
        settings.BAKEOFF_PUBLISHED_CACHE and _anonymous(request) and not _messages_waiting(request)
    )


def personal_page(
    request: HttpRequest,
    representation: Representation,
    render: Callable[[SafeString], HttpResponse],
) -> HttpResponse:
    """A signed-in reader's published page: the page of their viewer class, kept whole but for
    its header (their name, their forms and the tokens in them), rendered for them into it.
    ``render(slot)``: the page with ``slot`` where its header goes (base.html's
    ``header_slot``); an empty slot: the whole page, header included."""
    key = f"{representation.key}:page"
    if not settings.BAKEOFF_PUBLISHED_CACHE or _messages_waiting(request):
        return render(SafeString(""))  # a message is this reader's, once
    fetched = getattr(request, _FETCHED, None)  # read by ``serve`` with the rest
    entry = fetched.get(key) if isinstance(fetched, dict) else cache.get(key)
    nonce = str(getattr(request, "csp_nonce", "")).encode()
    # kept as UTF-8 bytes: a 300-run page is not encoded again for every reader
    if isinstance(entry, dict) and entry.get("format") == PAGE_FORMAT:
        before, after, kind = entry["before"], entry["after"], entry["type"]
        if entry["nonce"]:
            before = before.replace(entry["nonce"], nonce)
            after = after.replace(entry["nonce"], nonce)
    else:
        # a slot no text of the page can hold: a comment with a random name
        slot = mark_safe(f"<!-- header {secrets.token_hex(16)} -->")
        response = render(slot)
        before, found, after = response.content.partition(slot.encode())
        if response.status_code != 200 or not found or response.cookies:
            return render(SafeString(""))
        kind = response["Content-Type"]
        if b"csrfmiddlewaretoken" not in before + after:  # a form bound to this reader's cookie
            kept = {"format": PAGE_FORMAT, "before": before, "after": after}
            cache.set(key, {**kept, "type": kind, "nonce": nonce}, KEEP_SECONDS)
    header = render_to_string("_header.html", request=request).encode()
    return HttpResponse(b"".join((before, header, after)), content_type=kind)


def serve_page(
    request: HttpRequest,
    representation: Representation | None,
    render: Callable[[SafeString], HttpResponse],
) -> HttpResponseBase:
    """``serve`` for a page: ``render(slot)`` renders it with ``slot`` where its header goes
    (``personal_page``), whole for anonymous readers, around their own header for the others."""
    whole = SafeString("")
    if representation is None or page_shared(request):
        return serve(request, representation, lambda: render(whole), page=True)
    return serve(
        request, representation, lambda: personal_page(request, representation, render), page=True
    )


def serve(
    request: HttpRequest,
    representation: Representation | None,
    render: Callable[[], HttpResponseBase],
    *,
    page: bool,
) -> HttpResponseBase:
    """The answer to a GET of a published ``representation`` (None: ``render()`` as it is)."""
    if representation is None or request.method not in ("GET", "HEAD"):
        return render()
    if page and _messages_waiting(request):
        # a message is shown once: no validator, so that a kept copy never comes back by a 304
        shown = render()
        patch_cache_control(shown, private=True, no_store=True)
        patch_vary_headers(shown, ("Cookie", "Accept-Language"))
        return shown
    shared = page_shared(request) if page else settings.BAKEOFF_PUBLISHED_CACHE
    public = representation.public and shared and _anonymous(request)
    etag = _etag(request, representation, page)
    # one round trip: when it was first served, and the bytes this reader may be given (the whole
    # answer, or a signed-in reader's part of the page below the header: ``fragment``)
    keys = [f"{representation.key}:t"]
    if shared:
        keys.append(representation.key)
    elif page and settings.BAKEOFF_PUBLISHED_CACHE:
        keys.append(f"{representation.key}:page")
    fetched = cache.get_many(keys)
    setattr(request, _FETCHED, fetched)
    modified = _first_served(representation, fetched.get(keys[0]))
    answer = get_conditional_response(request, etag=etag, last_modified=int(modified))
    if answer is not None:
        return _headed(answer, etag, modified, public)
    entry = fetched.get(representation.key) if shared else None
    if isinstance(entry, dict) and entry.get("format") == REPRESENTATION_FORMAT:
        response: HttpResponseBase = _from_entry(request, entry)
    else:
        response = render()
        if shared:
            _keep(request, representation, response)
    return _headed(response, etag, modified, public)


def _keep(request: HttpRequest, representation: Representation, response: HttpResponseBase) -> None:
    if not isinstance(response, HttpResponse) or response.status_code != 200 or response.cookies:
        return
    body = response.content
    if b"csrfmiddlewaretoken" in body:
        return  # a form bound to this reader's cookie: never another reader's
    entry: dict[str, Any] = {
        "format": REPRESENTATION_FORMAT,
        "body": body,
        "type": response["Content-Type"],
        "headers": {name: response[name] for name in KEPT_HEADERS if response.has_header(name)},
        "nonce": getattr(request, "_csp_nonce", None) or "",
    }
    cache.set(representation.key, entry, KEEP_SECONDS)


def _from_entry(request: HttpRequest, entry: dict[str, Any]) -> HttpResponse:
    body: bytes = entry["body"]
    if entry["nonce"]:
        # this request's nonce, which the CSP middleware puts in the header
        body = body.replace(
            entry["nonce"].encode(), str(getattr(request, "csp_nonce", "")).encode()
        )
    response = HttpResponse(body, content_type=entry["type"])
    for name, value in entry["headers"].items():
        response[name] = value
    return response


def _headed(
    response: HttpResponseBase, etag: str, modified: float, public: bool
) -> HttpResponseBase:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    if public:
        patch_cache_control(
            response,
            public=True,
            max_age=settings.BAKEOFF_PUBLISHED_MAX_AGE,
            stale_while_revalidate=settings.BAKEOFF_PUBLISHED_STALE_SECONDS,
        )
    else:
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


# -- rendered when a version is published ---------------------------------------------------------


def _wsgi_get(handler: Any, host: str, path: str, language: str) -> bool:
    """A GET of ``path`` by an anonymous reader of ``language``, through every middleware (the
    page is the one a reader is served, kept by ``serve`` as it would keep it then)."""
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": host,
        "SERVER_PORT": "443",
        "HTTP_HOST": host,
        "HTTP_ACCEPT_LANGUAGE": language,
        "HTTP_X_FORWARDED_PROTO": "https",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "https",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    # the handler's own response path, without the signals of a request's end (which close the
    # database connection the task is using)
    response = handler.get_response(WSGIRequest(environ))
    return bool(response.status_code == 200)


def render_version(version_id: int, now: datetime) -> int:
    """Renders the newest version's track pages, exports and plots for anonymous readers in every
    language, into the cache shared by the web processes (``render_published``, queued when a
    version is published): the first readers of publication day find them rendered. A version
    not yet public (scheduled) is left to its first reader. Answers how many were rendered."""
    from django.core.handlers.wsgi import WSGIHandler

    if not (settings.BAKEOFF_PUBLISHED_CACHE and settings.CACHE_URL):
        return 0  # a cache of this process's own (the embedded mode): its first reader renders
    version = ResultsVersion.objects.select_related("bakeoff").filter(pk=version_id).first()
    if version is None or version.published_at > now:
        return 0
    newest = versions.newest(version.bakeoff, now)
    if newest is None or newest.pk != version.pk:
        return 0  # an erratum came since: its own task renders it
    handler = WSGIHandler()
    named = [h for h in settings.ALLOWED_HOSTS if h and "*" not in h and not h.startswith(".")]
    host = named[0] if named else "localhost"
    rendered = 0
    tracks = Track.objects.filter(corpus__bakeoff=version.bakeoff).order_by("pk")
    for track in tracks:
        page = reverse("leaderboard:track", args=(version.bakeoff.slug, track.slug))
        rendered += _wsgi_get(handler, host, page + "results.json", "en")
        for language, _name in settings.LANGUAGES:
            for path in (page, page + "results.csv", page + "results.tex", page + "f.svg"):
                rendered += _wsgi_get(handler, host, path, language)
    return rendered
