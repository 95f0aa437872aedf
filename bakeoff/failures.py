"""Why a run failed, for people: a code and its values are kept beside the English text, so that
every reader sees the reason in their own language. A row from before the codes has only the
English text, and shows it."""

from __future__ import annotations

from collections.abc import Mapping
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
class Reasons:
    """The failure reasons of one kind of subject (a run here, a committee in
    ``psychometric/failures.py``): a text per code, and the sentence around an error of the
    scoring library (``library_code``, whose values are the error's facts)."""

    texts: Mapping[str, StrOrPromise]
    library_code: str
    library_text: StrOrPromise

    def failure(self, code: str, params: dict[str, Any] | None = None) -> Failure:
        return Failure(code, params or {}, self)

    def from_library(self, error: scoring.ScoringError) -> Failure:
        """A subject the scoring library refused: the facts of its error are kept."""
        code, facts = scoring_error_facts(error)
        return self.failure(self.library_code, {"error_code": code, "error": str(error), **facts})

    def message(self, code: str, params: dict[str, Any]) -> StrOrPromise | None:
        """The reason of ``code`` with ``params`` in the reader's language; None when the code
        is unknown or its values do not fit (the stored English text is shown then)."""
        try:
            if code == self.library_code:
                facts = {k: v for k, v in params.items() if k not in ("error_code", "error")}
                error = scoring_error_message(params.get("error_code", ""), facts)
                shown = interpolate(self.library_text, error=error or params["error"])
            elif code in self.texts:
                shown = interpolate(self.texts[code], **params)
            else:
                return None
            english(shown)  # values missing or of the wrong kind fail here, not on the page
        except (KeyError, TypeError, ValueError):
            return None
        return shown

    def shown(self, code: str, params: dict[str, Any], stored: str) -> StrOrPromise:
        """What a page or a mail shows: the reason in the reader's language, else the stored
        English text."""
        return self.message(code, params) or stored


@dataclass(frozen=True)
class Failure:
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    # whose reasons the code is one of; None: a run's (``RUNS``)
    reasons: Reasons | None = field(default=None, compare=False, repr=False)

    @property
    def message(self) -> StrOrPromise:
        shown = (self.reasons or RUNS).message(self.code, self.params)
        assert shown is not None, self.code
        return shown

    @property
    def english(self) -> str:
        return english(self.message)


RUNS = Reasons(TEXTS, UNSCORABLE, _("The run could not be scored: %(error)s"))


def unscorable(error: scoring.ScoringError) -> Failure:
    """A run the scoring library could not score: the facts of its error are kept."""
    return RUNS.from_library(error)


def message(code: str, params: dict[str, Any]) -> StrOrPromise | None:
    """The reason of a run's ``code`` in the reader's language (``Reasons.message``)."""
    return RUNS.message(code, params)


def shown(code: str, params: dict[str, Any], stored: str) -> StrOrPromise:
    """What a page shows for a failed run: the reason in the reader's language, else the stored
    English text."""
    return RUNS.shown(code, params, stored)
