"""Every error the API answers carries a stable machine-readable ``code`` beside its English
``detail``: scripts test the code, never the prose (docs/api-errors.md lists them).

DRF's own errors (authentication, permission, not found, method, parse errors) get the code DRF
gives them (``not_authenticated``, ``permission_denied``, ``not_found``, ...); a form field's
errors keep their shape under ``errors`` with ``code`` ``invalid``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ..errors import Refused


def error(code: str, detail: str, status: int, **fields: Any) -> Response:
    return Response({"code": code, "detail": detail, **fields}, status=status)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Refused):
        return Response(exc.to_dict(), status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        response.data = {"code": getattr(detail, "code", None) or exc.default_code, **response.data}
    else:
        response.data = {
            "code": exc.default_code,
            "detail": "The request is not valid.",
            "errors": response.data,
        }
    return response
