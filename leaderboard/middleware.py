"""A results version this release cannot read answers a clear 503, not a 500.

It happens after a rollback: a newer release froze a version in a format this one does not know
(``versions.UnreadableVersion``). Nothing is wrong with the request, and nothing a reader can do
helps: the page says so, the operator is told in the log, and running the newer release again
serves it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

from bakeoff import error_codes

from .versions import UnreadableVersion

logger = logging.getLogger(__name__)

CODE = "results_format_unknown"


class UnreadableVersionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, UnreadableVersion):
            return None
        logger.error("%s (%s)", exception, request.path)
        detail = str(exception)
        if request.path.startswith("/api/"):
            body = {"code": CODE, "detail": detail, "message": error_codes.message(CODE, request)}
            return JsonResponse(body, status=503)
        return HttpResponse(
            "<!doctype html><title>503</title><h1>503</h1>"
            f"<p>{escape(_('These results cannot be shown by this release of the platform.'))}</p>"
            f"<p>{escape(detail)}</p>",
            status=503,
            content_type="text/html; charset=utf-8",
        )
