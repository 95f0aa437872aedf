"""Why a track's analysis failed, for people: a code and its values are kept beside the English
text, so that every reader sees the reason in their own language, as for a failed run
(``bakeoff/failures.py``) or committee (``psychometric/failures.py``). An analysis from before the
codes has only the English text, and shows it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.failures import Failure, Reasons

NOT_ANALYSED = "not_analysed"
INTERNAL_ERROR = "internal_error"

TEXTS: dict[str, StrOrPromise] = {
    INTERNAL_ERROR: _("Internal error while analysing (%(error)s)."),
}


ANALYSES = Reasons(TEXTS, NOT_ANALYSED, _("The track could not be analysed: %(error)s"))


def failure(code: str, params: dict[str, Any] | None = None) -> Failure:
    """A track analysis's failure: ``code``, one of this module's, with its values."""
    return ANALYSES.failure(code, params)


def shown(code: str, params: dict[str, Any], stored: str) -> StrOrPromise:
    """What a page shows for a failed analysis: the reason in the reader's language, else the
    stored English text."""
    return ANALYSES.shown(code, params, stored)
