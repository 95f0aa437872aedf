"""Every ``code`` an error of the API may carry: the one list that the OpenAPI description
(``bakeoff/api/schema.py``), the ``message`` of an error in the reader's language
(``bakeoff/api/errors.py``) and docs/api-errors.md (tested both ways,
``tests/bakeoff/test_api_error_codes.py``) are made from.

A code is never renamed; a new kind of error gets a new one. ``summary`` says what the code
means in words a participant can act on, translated: an error whose own words have no
translation (a parser's, a proxy's) answers it as its ``message``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation.trans_real import parse_accept_lang_header
from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class ErrorCode:
    code: str
    status: int
    summary: StrOrPromise
    # other statuses the code comes with (``refused``: 409 for a run identical to one of the
    # site's, an older kind of error than this list; a code is never renamed)
    also: tuple[int, ...] = ()

    @property
    def statuses(self) -> tuple[int, ...]:
        return (self.status, *self.also)


ERRORS: tuple[ErrorCode, ...] = (
    ErrorCode("no_file", 400, _("Send the run as the multipart field 'file'.")),
    ErrorCode("wrong_text", 400, _("The run's characters differ from those of the test text.")),
    ErrorCode("line_count", 400, _("The run has more or fewer lines than the test text.")),
    ErrorCode("encoding", 400, _("The run does not decode in the corpus's encoding.")),
    ErrorCode("control_character", 400, _("The run holds a control character.")),
    ErrorCode("invalid_file", 400, _("This file cannot be a run.")),
    ErrorCode("unknown_phase", 400, _("Unknown phase.")),
    ErrorCode("invalid", 400, _("The request is not valid.")),
    ErrorCode("parse_error", 400, _("The body is not valid JSON.")),
    ErrorCode("json_too_deep", 400, _("The JSON body is nested too deep.")),
    ErrorCode("unknown_track", 400, _("The bakeoff has no such track.")),
    ErrorCode("missing_fields", 400, _("Give the site's name and institution.")),
    ErrorCode("registration_refused", 400, _("The rules refuse this registration.")),
    ErrorCode("gold_as_run", 400, _("A post-bakeoff run must be the output of a system.")),
    ErrorCode("refused", 400, _("The rules refuse this action."), also=(409,)),
    ErrorCode("not_authenticated", 401, _("Send your token: Authorization: Token ...")),
    ErrorCode("authentication_failed", 401, _("This token does not exist.")),
    ErrorCode("deadline_passed", 403, _("The deadline has passed.")),
    ErrorCode("not_registered", 403, _("Your site is not registered for this track.")),
    ErrorCode("not_released", 403, _("This is not open yet.")),
    ErrorCode(
        "licence_not_accepted",
        403,
        _("A member of your site must accept the corpus's data agreement first."),
    ),
    ErrorCode("not_allowed", 403, _("Your account may not do this.")),
    ErrorCode("permission_denied", 403, _("Your account may not do this.")),
    ErrorCode("not_found", 404, _("Not found, or not yours to see.")),
    ErrorCode("method_not_allowed", 405, _("This method is not allowed here.")),
    ErrorCode("not_acceptable", 406, _("The answer cannot be given in the format asked for.")),
    ErrorCode("run_limit_reached", 409, _("Your site has used all its runs.")),
    ErrorCode("upload_too_large", 413, _("The file is too large.")),
    ErrorCode("unsupported_media_type", 415, _("Send the body in a form this operation reads.")),
    ErrorCode("throttled", 429, _("Too many failed token authentications from your address.")),
    ErrorCode("too_many_uploads", 429, _("Too many uploads from your site: try again later.")),
    ErrorCode("too_many_connections", 429, _("Too many connections from your address.")),
    ErrorCode("too_many_logins", 429, _("Too many failed logins: try again later.")),
    ErrorCode("too_many_requests", 429, _("Too many requests: try again later.")),
    ErrorCode("server_error", 500, _("A fault of the platform; the organisers have been told.")),
    ErrorCode("storage_full", 503, _("The platform's disk is full: try again later.")),
    ErrorCode("unavailable", 503, _("The platform is away for a moment: try again later.")),
    ErrorCode(
        "results_format_unknown",
        503,
        _("These results cannot be shown by this release of the platform."),
    ),
)

BY_CODE: dict[str, ErrorCode] = {error.code: error for error in ERRORS}


def statuses() -> list[int]:
    return sorted({status for error in ERRORS for status in error.statuses})


def codes_of(status: int) -> list[str]:
    return [error.code for error in ERRORS if status in error.statuses]


def reader_language(request: HttpRequest | None) -> str:
    """The language the request's Accept-Language asks for among the platform's (zh-CN and
    zh-SG give zh-hans, zh-TW and zh-HK zh-hant), else English. The API's ``detail`` stays
    English whatever it asks (bakeoff.middleware); its ``message`` is in this language."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "") if request is not None else ""
    for asked, _quality in parse_accept_lang_header(header[:256]):
        if asked == "*":
            break
        try:
            return translation.get_supported_language_variant(asked)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def message(code: str, request: HttpRequest | None, text: StrOrPromise | None = None) -> str:
    """An error's ``message``: its own words (``text``, translatable) in the reader's language,
    else, for words without a translation, what its code means."""
    with translation.override(reader_language(request)):
        if text is not None and (
            not isinstance(text, str) or translation.get_language() == settings.LANGUAGE_CODE
        ):
            return str(text)
        known = BY_CODE.get(code)
        return str(known.summary) if known is not None else str(text or "")
