"""Server errors: the API answers JSON, pages a short HTML page; both say whether to try again.

Django logs the error with its trace before it calls these (``handler500`` in config/urls.py).
A database that is away for a moment (restarting, failing over) answers 503 with Retry-After.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

RETRY_AFTER_SECONDS = 30


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    unavailable = isinstance(error, OperationalError | InterfaceError)
    if unavailable:
        status, code = 503, "unavailable"
        detail = "The platform is unavailable for a moment; try again shortly."
    else:
        status, code = 500, "server_error"
        detail = "Internal server error; the organisers of the platform have been told."
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": code, "detail": detail}, status=status)
    else:
        response = HttpResponse(
            f"<!doctype html><title>{status}</title><h1>{status}</h1><p>{detail}</p>",
            status=status,
            content_type="text/html; charset=utf-8",
        )
    if unavailable:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
