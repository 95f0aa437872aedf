"""The API's fields cleaned by the pages' own form fields: the same lengths, the same refusal of
control characters (``validators.validate_text``), the same choices, in the same words. A field
refused answers 400 ``invalid`` with ``errors`` in the shape of a form's (docs/api-errors.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from ..errors import InvalidFields


def fields_of(data: object) -> Mapping[str, Any]:
    """The request's fields: one JSON object, or the form or multipart fields."""
    if not isinstance(data, Mapping):  # a JSON list, string, number or null
        raise InvalidFields(
            "Send the request's fields as one object.",
            errors={"": [{"message": "Send one object of fields.", "code": "invalid"}]},
        )
    return data


def cleaned(form: forms.BaseForm, names: Iterable[str]) -> dict[str, Any]:
    """The ``names`` fields of a bound page form, each cleaned by the form's own field (its
    validators and messages); raises InvalidFields naming every field refused. Only the fields:
    what the form's ``clean`` checks across them is the services' to say."""
    values: dict[str, Any] = {}
    errors: dict[str, ValidationError] = {}
    for name in names:
        try:
            values[name] = form.fields[name].clean(form[name].data)
        except ValidationError as error:
            errors[name] = error
    if errors:
        raise InvalidFields.from_validation_errors(errors)
    return values
