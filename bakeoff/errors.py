"""Domain errors: each carries a message for people, a stable machine-readable ``code`` and the
HTTP status an API answers with.

A message is written once, in English, marked for translation (``gettext_lazy``, or
``ngettext_lazy`` with the name of the value that counts; values put in by ``interpolate``):
``detail`` is its English text (what the API answers and what is stored), ``message`` the same
words in the reader's language, for pages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django_stubs_ext import StrOrPromise

import scoring
from scoring.core import validate as scoring_validate
from scoring.core.errors import show_char


def _interpolate(text: StrOrPromise, values: dict[str, Any]) -> str:
    # ``text % values``, not ``str(text) % values``: a lazy plural picks its form from the values.
    return str(text % {k: str(v) if isinstance(v, StrOrPromise) else v for k, v in values.items()})


_lazy_interpolate = lazy(_interpolate, str)


def interpolate(text: StrOrPromise, **values: Any) -> StrOrPromise:
    """``text % values``, translated when shown: ``interpolate(_("Line %(line)d"), line=3)``, or
    ``interpolate(ngettext_lazy("%(count)d run", "%(count)d runs", "count"), count=2)``."""
    return _lazy_interpolate(text, values)


def _listing(items: tuple[StrOrPromise, ...]) -> str:
    # the list separator of the reader's language (、 in Chinese), as the templates write it
    return str(translation.gettext(", ")).join(str(item) for item in items)


_lazy_listing = lazy(_listing, str)


def gap() -> str:
    """What parts two sentences, or a phrase and the parenthesis after it, in the active
    language: a space in English, nothing in Chinese, whose full stop (。) and parentheses (（）)
    are full-width and part them already. The catalogue decides (``{% gap %}`` in templates)."""
    parts = translation.pgettext(
        "two parts of a text: sentences, or a phrase and its parenthesis", "%(first)s %(then)s"
    )
    return parts % {"first": "", "then": ""}


def _sentences(items: tuple[StrOrPromise, ...]) -> str:
    return gap().join(str(item) for item in items)


_lazy_sentences = lazy(_sentences, str)


def listing(items: Iterable[StrOrPromise]) -> StrOrPromise:
    """The items as one list in the language the message is shown in: ``a, b`` in English
    (``detail``), ``a、b`` in Chinese (``message``); a value for ``interpolate``."""
    return _lazy_listing(tuple(items))


def sentences(items: Iterable[StrOrPromise]) -> StrOrPromise:
    """Whole sentences as one text in the language it is shown in: ``A. B.`` in English,
    ``甲。乙。`` in Chinese; "" for none."""
    return _lazy_sentences(tuple(items))


def english(text: StrOrPromise) -> str:
    with translation.override("en"):
        return str(text)


class Refused(Exception):
    """An action the rules refuse; ``detail`` says why, in words a participant can act on."""

    status_code = 400
    code = "refused"

    def __init__(self, detail: StrOrPromise, *, code: str | None = None, **fields: Any) -> None:
        self.message = detail
        self.detail = english(detail)
        super().__init__(self.detail)
        if code is not None:
            self.code = code
        self.fields = fields

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, **self.fields}


class NotAllowed(Refused):
    status_code = 403
    code = "not_allowed"


class NotReleased(Refused):
    status_code = 403
    code = "not_released"


class DeadlinePassed(Refused):
    status_code = 403
    code = "deadline_passed"


class NotRegistered(Refused):
    status_code = 403
    code = "not_registered"


class RegistrationRefused(Refused):
    status_code = 400
    code = "registration_refused"


class RunLimitReached(Refused):
    status_code = 409
    code = "run_limit_reached"


class IdenticalRun(Refused):
    """A run byte for byte the same as one the site already has on the track."""

    status_code = 409


class GoldAsRun(Refused):
    """A run that is the released gold standard itself (canonically: whatever its whitespace):
    it would stand on a table with F = 1 and a permanent link, measuring nothing."""

    status_code = 400
    code = "gold_as_run"


class DescriptionMissing(Refused):
    status_code = 400


class InvalidFields(Refused):
    """Fields refused by the validators of the pages' forms (too long, a control character, not
    one of the choices). ``errors`` names each field with its messages and their codes, in the
    shape of a Django form's ``errors.get_json_data()``; the API answers it as it is."""

    status_code = 400
    code = "invalid"

    @classmethod
    def from_validation_errors(cls, errors: dict[str, ValidationError]) -> InvalidFields:
        """``errors``: each refused field, with the ValidationError its field or validator
        raised."""
        found: dict[str, list[tuple[StrOrPromise, str]]] = {}
        for name, error in errors.items():
            found[name] = [(_message(item), item.code or "invalid") for item in error.error_list]
        message = "; ".join(
            str(interpolate(_("%(field)s: %(message)s"), field=name, message=text))
            for name, items in found.items()
            for text, _code in items
        )
        refusal = cls(
            message,
            errors={
                name: [{"message": english(text), "code": code} for text, code in items]
                for name, items in found.items()
            },
        )
        refusal.detail = "; ".join(
            f"{name}: {english(text)}" for name, items in found.items() for text, _code in items
        )
        refusal.args = (refusal.detail,)
        return refusal


def _message(error: ValidationError) -> StrOrPromise:
    """A ValidationError's message with its parameters, still translated when shown."""
    return interpolate(error.message, **error.params) if error.params else error.message


class UploadTooLarge(Refused):
    status_code = 413
    code = "upload_too_large"


def describe_char(char: str) -> StrOrPromise:
    """A character as the scoring library names it, the end of a line in words."""
    if char == "":
        return _("the end of the line")
    if len(char) == 1:
        return f"{show_char(char)} (U+{ord(char):04X})"
    return repr(char)


# The reasons the scoring library gives, in words people read in their language.
SCORING_REASONS: dict[str, StrOrPromise] = {
    "the run's characters must be those of the test text, line for line": _(
        "the run's characters must be those of the test text, line for line"
    ),
    "the gold line is empty, so the run's line must be empty too": _(
        "the gold line is empty, so the run's line must be empty too"
    ),
}


# What the files are called in a refusal's first words ("gold: line 3...").
FILE_NAMES: dict[str, StrOrPromise] = {
    "run": _("run"),
    "gold": _("gold"),
    "test text": _("test text"),
    "training word list": _("training word list"),
    "training text": _("training text"),
    "development gold": _("development gold"),
    "development text": _("development text"),
    "domain labels": _("domain labels"),
}


def line_count_reason(run: int, test: int) -> StrOrPromise:
    """Why a run with ``run`` lines does not fit a text of ``test`` lines, as a whole sentence
    in the reader's language; many lines missing or added (``scoring``'s ``MANY_LINES``) ask
    whether the file is the right one."""
    if run == 0:
        return interpolate(
            _(
                "the run is an empty file, and the test text has %(test)d lines: is this the "
                "right file?"
            ),
            test=test,
        )
    many = abs(run - test) > scoring_validate.MANY_LINES
    if run < test:
        text = (
            ngettext_lazy(
                "the run has %(run)d line and the test text %(test)d: %(missing)d lines are "
                "missing; is this the right file?",
                "the run has %(run)d lines and the test text %(test)d: %(missing)d lines are "
                "missing; is this the right file?",
                "run",
            )
            if many
            else ngettext_lazy(
                "the run has %(run)d line and the test text %(test)d: a line was dropped at or "
                "before this one",
                "the run has %(run)d lines and the test text %(test)d: a line was dropped at or "
                "before this one",
                "run",
            )
        )
    else:
        text = (
            ngettext_lazy(
                "the run has %(run)d line and the test text %(test)d: %(extra)d lines too many; "
                "is this the right file?",
                "the run has %(run)d lines and the test text %(test)d: %(extra)d lines too many; "
                "is this the right file?",
                "run",
            )
            if many
            else ngettext_lazy(
                "the run has %(run)d line and the test text %(test)d: a line was added at or "
                "before this one",
                "the run has %(run)d lines and the test text %(test)d: a line was added at or "
                "before this one",
                "run",
            )
        )
    return interpolate(text, run=run, test=test, missing=test - run, extra=run - test)


def scoring_error_facts(error: scoring.ScoringError) -> tuple[str, dict[str, Any]]:
    """The code and the facts of an error of the scoring library (JSON values, kept with a
    failed run); ("", {}) for an error without a message of its own here."""
    if isinstance(error, scoring.RunValidationError):
        facts = error.to_dict()
        facts.pop("detail", None)
        facts["reason"] = error.reason
        return ("line_count" if isinstance(error, scoring.LineCountError) else "wrong_text"), facts
    if isinstance(error, scoring.EncodingError):
        facts = {"line": error.line, "byte_offset": error.byte_offset, "encoding": error.encoding}
        return "encoding", facts
    if isinstance(error, scoring.CorpusLineCountError):
        return "corpus_line_count", {"gold_lines": error.gold_lines, "test_lines": error.test_lines}
    if isinstance(error, scoring.ControlCharacterError):
        return "control_character", {
            "line": error.line,
            "column": error.column,
            "found": error.found,
        }
    return "", {}


def scoring_error_message(code: str, facts: dict[str, Any]) -> StrOrPromise | None:
    """The facts of ``scoring_error_facts`` in the reader's language; None for an unknown code."""
    if code in ("line_count", "wrong_text"):
        reason = SCORING_REASONS.get(facts.get("reason") or "", facts.get("reason") or "")
        if code == "line_count" and "run_lines" in facts:  # kept since issue 28: in words
            reason = line_count_reason(int(facts["run_lines"]), int(facts["reference_lines"]))
        text = (
            _(
                "line %(line)d, column %(column)d: expected %(expected)s, found %(found)s; "
                "%(reason)s"
            )
            if reason
            else _("line %(line)d, column %(column)d: expected %(expected)s, found %(found)s")
        )
        return interpolate(
            text,
            line=facts["line"],
            column=facts["column"],
            expected=describe_char(facts["expected"]),
            found=describe_char(facts["found"]),
            reason=reason,
        )
    if code == "corpus_line_count":
        return interpolate(
            _(
                "the gold standard has %(gold)d lines and the test text %(test)d: they must "
                "have one line per sentence each"
            ),
            gold=facts["gold_lines"],
            test=facts["test_lines"],
        )
    if code == "encoding":
        return interpolate(
            _(
                "line %(line)d: the bytes at offset %(offset)d of the line do not decode as "
                "%(encoding)s; is the file in another encoding?"
            ),
            line=facts["line"],
            offset=facts["byte_offset"],
            encoding=facts["encoding"],
        )
    if code == "control_character":
        return interpolate(
            _(
                "line %(line)d, column %(column)d: %(found)s is a NUL character, which no text "
                "holds; remove it (a file saved as UTF-16 has one in every other byte)"
            )
            if facts["found"] == "\x00"
            else _(
                "line %(line)d, column %(column)d: %(found)s is a control character; remove it "
                "(this file may contain no control character but tab, line feed and carriage "
                "return)"
            ),
            line=facts["line"],
            column=facts["column"],
            found=describe_char(facts["found"]),
        )
    return None


class InvalidFile(Refused):
    """A file that does not decode or does not match the text it must segment."""

    status_code = 400
    code = "invalid_file"

    @classmethod
    def from_scoring_error(cls, error: scoring.ScoringError, what: str = "") -> InvalidFile:
        """Keeps the facts (line, column, expected, found; or line, byte offset, encoding) as
        fields, and says them again in the reader's language."""
        code, facts = scoring_error_facts(error)
        message = scoring_error_message(code, facts)
        if message is None:
            return cls(f"{what}: {error}" if what else str(error))
        fields = {name: value for name, value in facts.items() if name != "reason"}
        refusal = cls(
            interpolate(
                _("%(what)s: %(message)s"), what=FILE_NAMES.get(what, what), message=message
            )
            if what
            else message,
            code=code,
            **fields,
        )
        # The English detail exactly as the scoring library words it (scripts and tests know it).
        refusal.detail = f"{what}: {error}" if what else str(error)
        refusal.args = (refusal.detail,)
        return refusal
