"""Why a committee failed, for people: a code and its values are kept beside the English text, so
that every reader sees the reason in their own language, as for a failed run
(``bakeoff/failures.py``). A committee from before the codes has only the English text, and
shows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import scoring
from bakeoff.errors import english, interpolate, scoring_error_facts, scoring_error_message

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


@dataclass(frozen=True)
class Failure:
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> StrOrPromise:
        shown = message(self.code, self.params)
        assert shown is not None, self.code
        return shown

    @property
    def english(self) -> str:
        return english(self.message)


def not_built(error: scoring.ScoringError) -> Failure:
    """A committee the scoring library could not build: the facts of its error are kept."""
    code, facts = scoring_error_facts(error)
    return Failure(NOT_BUILT, {"error_code": code, "error": str(error), **facts})


def message(code: str, params: dict[str, Any]) -> StrOrPromise | None:
    """The reason of ``code`` with ``params`` in the reader's language; None when the code is
    unknown or its values do not fit (the stored English text is shown then)."""
    try:
        if code == NOT_BUILT:
            facts = {k: v for k, v in params.items() if k not in ("error_code", "error")}
            error = scoring_error_message(params.get("error_code", ""), facts) or params["error"]
            shown = interpolate(_("The committee could not be built: %(error)s"), error=error)
        elif code in TEXTS:
            shown = interpolate(TEXTS[code], **params)
        else:
            return None
        english(shown)  # values missing or of the wrong kind fail here, not on the page
    except (KeyError, TypeError, ValueError):
        return None
    return shown


def shown(code: str, params: dict[str, Any], stored: str) -> StrOrPromise:
    """What a page or a mail shows for a failed committee: the reason in the reader's language,
    else the stored English text."""
    return message(code, params) or stored
