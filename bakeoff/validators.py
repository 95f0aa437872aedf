"""What free text may hold, on every way in: a run's description, a withdrawal's reason, a
statement of resources, a note. The pages' forms list ``validate_text`` among their fields'
validators, the API cleans its fields with those same form fields, and the services check again
with ``check_text`` (docs/validation.md#free-text). One rule, so the same text gets the same
answer in the same words wherever it is sent.

The rule: text is what a database column, a JSON document and a mail can all carry, so no
control character but tab, line feed and carriage return (the characters the scoring library
refuses in corpus files, ``scoring.check_characters``; a NUL, for one, PostgreSQL refuses) and
no lone UTF-16 surrogate (a JSON ``"\\ud800"`` decodes to one, and it has no UTF-8 form).
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

import scoring

from .errors import InvalidFields, describe_char

_SURROGATE = re.compile("[\ud800-\udfff]")


def validate_text(value: str) -> None:
    """Refuse free text with a control character but tab, line feed and carriage return, or with
    a lone surrogate, naming where."""
    try:
        scoring.check_characters(value)
    except scoring.ControlCharacterError as error:
        raise ValidationError(
            _(
                "Line %(line)s, column %(column)s: %(found)s is a control character; remove it "
                "(text may hold tabs and line breaks, no other control character)."
            ),
            code="control_character",
            params={
                "line": error.line,
                "column": error.column,
                "found": describe_char(error.found),
            },
        ) from None
    surrogate = _SURROGATE.search(value)
    if surrogate is not None:
        start = surrogate.start()
        raise ValidationError(
            _(
                "Line %(line)s, column %(column)s: U+%(code)04X is half of a UTF-16 surrogate "
                "pair, not a character; send the text as UTF-8."
            ),
            code="surrogate",
            params={
                "line": value.count("\n", 0, start) + 1,
                "column": start - value.rfind("\n", 0, start),
                "code": ord(surrogate.group()),
            },
        )


def check_text(**fields: str) -> None:
    """Refuse (``InvalidFields``, naming each field) any of ``fields`` that ``validate_text``
    refuses: what the services check of free text that reached them by any way."""
    errors: dict[str, ValidationError] = {}
    for name, value in fields.items():
        try:
            validate_text(value)
        except ValidationError as error:
            errors[name] = error
    if errors:
        raise InvalidFields.from_validation_errors(errors)
