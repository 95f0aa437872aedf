"""Why a committee failed, for people: a code and its values are kept beside the English text, so
that every reader sees the reason in their own language, as for a failed run
(``bakeoff/failures.py``). A committee from before the codes has only the English text, and
shows it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import scoring
from bakeoff.failures import Failure, Reasons

NOT_BUILT = "not_built"
ATTEMPTS_EXHAUSTED = "attempts_exhausted"
MEMBER_ATTEMPTS_EXHAUSTED = "member_attempts_exhausted"
INTERNAL_ERROR = "internal_error"
MEMBER_INTERNAL_ERROR = "member_internal_error"

TEXTS: dict[str, StrOrPromise] = {
    ATTEMPTS_EXHAUSTED: _("The build was started %(attempts)d times without finishing."),
    MEMBER_ATTEMPTS_EXHAUSTED: _(
        "Member %(member)d was started %(attempts)d times without finishing."
    ),
    INTERNAL_ERROR: _("Internal error while building the committee (%(error)s)."),
    MEMBER_INTERNAL_ERROR: _("Internal error while training a committee member (%(error)s)."),
}


COMMITTEES = Reasons(TEXTS, NOT_BUILT, _("The committee could not be built: %(error)s"))


def failure(code: str, params: dict[str, Any] | None = None) -> Failure:
    """A committee's or a member's failure: ``code``, one of this module's, with its values."""
    return COMMITTEES.failure(code, params)


def not_built(error: scoring.ScoringError) -> Failure:
    """A committee the scoring library could not build: the facts of its error are kept."""
    return COMMITTEES.from_library(error)


def message(code: str, params: dict[str, Any]) -> StrOrPromise | None:
    """The reason of a committee's ``code`` in the reader's language (``Reasons.message``)."""
    return COMMITTEES.message(code, params)


def shown(code: str, params: dict[str, Any], stored: str) -> StrOrPromise:
    """What a page or a mail shows for a failed committee: the reason in the reader's language,
    else the stored English text."""
    return COMMITTEES.shown(code, params, stored)
