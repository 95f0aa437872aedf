"""Every error the API answers carries a stable machine-readable ``code`` beside its English
``detail``, and its ``message`` in the language of the request's Accept-Language (zh-hans,
zh-hant, en): scripts test the code, never the prose (docs/api-errors.md lists them, from the
one list ``bakeoff/error_codes.py``).

DRF's own errors (authentication, permission, not found, method, parse errors) get the code DRF
gives them (``not_authenticated``, ``permission_denied``, ``not_found``, ...) and as ``message``
what the code means; a form field's errors keep their shape under ``errors`` with ``code``
``invalid``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django_stubs_ext import StrOrPromise
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .. import error_codes
from ..errors import Refused, english


def error(
    request: HttpRequest, code: str, detail: StrOrPromise, status: int, **fields: Any
) -> Response:
    """An error the API's views answer themselves: ``detail`` marked for translation."""
    return Response(
        {
            "code": code,
            "detail": english(detail),
            "message": error_codes.message(code, request, detail),
            **fields,
        },
        status=status,
    )


def refusal(request: HttpRequest, refused: Refused) -> Response:
    """A domain refusal as the API answers it; returned, not raised, where the refusal was
    recorded in the request's transaction (a refused upload's line in the audit trail)."""
    return Response(body_of(request, refused), status=refused.status_code)


def body_of(request: HttpRequest | None, refused: Refused) -> dict[str, Any]:
    body = refused.to_dict()
    return {
        "code": body.pop("code"),
        "detail": body.pop("detail"),
        "message": error_codes.message(refused.code, request, refused.message),
        **body,
    }


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    request = context.get("request")
    if isinstance(exc, Refused):
        return Response(body_of(request, exc), status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        code = getattr(detail, "code", None) or exc.default_code
        response.data = {"code": code, **response.data}
    else:
        code = exc.default_code
        response.data = {
            "code": code,
            "detail": "The request is not valid.",
            "errors": response.data,
        }
    response.data["message"] = error_codes.message(code, request)
    return response
