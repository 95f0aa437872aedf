"""Why a run failed, for people: a code and its values are kept beside the English text, so that
every reader sees the reason in their own language. A row from before the codes has only the
English text, and shows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django_stubs_ext import StrOrPromise

import scoring

from .errors import english, interpolate, scoring_error_facts, scoring_error_message

NO_GOLD = "no_gold"
GOLD_NEEDS_REVIEW = "gold_needs_review"
UNSCORABLE = "unscorable"
NO_DEVELOPMENT_SET = "no_development_set"
ATTEMPTS_EXHAUSTED = "attempts_exhausted"
INTERNAL_ERROR = "internal_error"

TEXTS: dict[str, StrOrPromise] = {
    NO_GOLD: _("The corpus has no gold standard yet."),
    GOLD_NEEDS_REVIEW: ngettext_lazy(
        "The gold standard differs from the test text on %(lines)d line; the run will be "
        "scored once the organiser accepts it or uploads a corrected gold.",
        "The gold standard differs from the test text on %(lines)d lines; the run will be "
        "scored once the organiser accepts them or uploads a corrected gold.",
        "lines",
    ),
    NO_DEVELOPMENT_SET: _("The corpus has no development set any more."),
    ATTEMPTS_EXHAUSTED: _(
        "Scoring was started %(attempts)d times without finishing; the organisers have been told."
    ),
    INTERNAL_ERROR: _("Internal error while scoring (%(error)s); the organisers have been told."),
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


def unscorable(error: scoring.ScoringError) -> Failure:
    """A run the scoring library could not score: the facts of its error are kept."""
    code, facts = scoring_error_facts(error)
    return Failure(UNSCORABLE, {"error_code": code, "error": str(error), **facts})


def message(code: str, params: dict[str, Any]) -> StrOrPromise | None:
    """The reason of ``code`` with ``params`` in the reader's language; None when the code is
    unknown or its values do not fit (the stored English text is shown then)."""
    try:
        if code == UNSCORABLE:
            facts = {k: v for k, v in params.items() if k not in ("error_code", "error")}
            error = scoring_error_message(params.get("error_code", ""), facts) or params["error"]
            shown = interpolate(_("The run could not be scored: %(error)s"), error=error)
        elif code in TEXTS:
            shown = interpolate(TEXTS[code], **params)
        else:
            return None
        english(shown)  # values missing or of the wrong kind fail here, not on the page
    except (KeyError, TypeError, ValueError):
        return None
    return shown


def shown(code: str, params: dict[str, Any], stored: str) -> StrOrPromise:
    """What a page shows for a failed run: the reason in the reader's language, else the stored
    English text."""
    return message(code, params) or stored
