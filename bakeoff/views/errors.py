"""Server errors: the API answers JSON, pages a short HTML page; both say whether to try again.

Django logs the error with its trace before it calls these (``handler500`` in config/urls.py).
A database that is away for a moment (restarting, failing over) answers 503 with Retry-After, and
so does a full disk: the upload that met it was not accepted and left nothing behind
(config/storage.py), and the same upload is accepted once the operator has made room.
"""

from __future__ import annotations

import errno
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.defaults import page_not_found

from .. import error_codes

RETRY_AFTER_SECONDS = 30
# No space left on the device, or over the user's quota.
STORAGE_FULL = {errno.ENOSPC, errno.EDQUOT}
STORAGE_RETRY_AFTER_SECONDS = 300

# The API says them in English (scripts read the code); a page in the reader's language.
UNAVAILABLE = gettext_noop("The platform is unavailable for a moment; try again shortly.")
STORAGE_FULL_DETAIL = gettext_noop(
    "The platform cannot store files for the moment (its disk is full): nothing was accepted "
    "and nothing was kept. The organisers of the platform have been told; send the same file "
    "again in a few minutes."
)
SERVER_ERROR = gettext_noop("Internal server error; the organisers of the platform have been told.")


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    retry_after = None
    if isinstance(error, OperationalError | InterfaceError):
        status, code, retry_after = 503, "unavailable", RETRY_AFTER_SECONDS
        detail = UNAVAILABLE
    elif isinstance(error, OSError) and error.errno in STORAGE_FULL:
        status, code, retry_after = 503, "storage_full", STORAGE_RETRY_AFTER_SECONDS
        detail = STORAGE_FULL_DETAIL
    else:
        status, code = 500, "server_error"
        detail = SERVER_ERROR
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {
                "code": code,
                "detail": detail,
                "message": error_codes.message(code, request, gettext_lazy(detail)),
            },
            status=status,
        )
    else:
        shown = _(detail)
        response = HttpResponse(
            f"<!doctype html><title>{status}</title><h1>{status}</h1><p>{escape(shown)}</p>",
            status=status,
            content_type="text/html; charset=utf-8",
        )
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """An address that names no page: on the API, JSON with its code, as every API error (a
    path whose parameters do not fit its route, ``/api/bakeoffs/b/tracks/%0D/...``); elsewhere
    Django's page."""
    if request.path.startswith("/api/"):
        body = {
            "code": "not_found",
            "detail": "Not found.",
            "message": error_codes.message("not_found", request),
        }
        return JsonResponse(body, status=404)
    return page_not_found(request, exception)
