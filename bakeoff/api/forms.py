"""The pages' forms, filled from the fields of an API request: the API refuses what the pages
refuse (a name too long, a NUL or control character, a value that is not one of the choices),
with the same validators, and answers the refusal as JSON (docs/api-errors.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import InvalidFields, Refused
from ..forms import RegistrationForm
from ..models import Bakeoff, Track

# The registration's free text, as the API takes it: each a JSON string (or absent).
REGISTRATION_TEXT = ("name", "institution", "country", "resources_statement")
# What a script may send for the yes-or-no ``commercial_product``, besides JSON true and false.
YES = frozenset({"1", "true", "yes", "on"})
NO = frozenset({"", "0", "false", "no", "off"})


class MissingFields(Refused):
    status_code = 400
    code = "missing_fields"


def registration_form(
    data: Mapping[str, Any], bakeoff: Bakeoff, tracks: Iterable[Track], *, new_site: bool
) -> RegistrationForm:
    """The registration page's form, valid, for a registration sent to the API (``tracks``
    already found by their slugs). A new site needs its name and institution; its country and
    ``commercial_product`` may be left out (empty, and no). That at least one track is chosen is
    a rule of the registration service, which refuses it in the same words on every path."""
    texts = _texts(data)
    if new_site:
        missing = [name for name in ("name", "institution") if not texts.get(name, "").strip()]
        if missing:
            raise MissingFields(f"Give the site's {' and '.join(missing)}.", missing=missing)
    fields: dict[str, Any] = {
        **texts,
        "commercial_product": _yes_or_no(data.get("commercial_product")),
        "tracks": [str(track.pk) for track in tracks],
    }
    form = RegistrationForm(fields, bakeoff=bakeoff)
    optional = ["tracks", "country", "commercial_product"]
    if not new_site:  # a member of a site registers it for more tracks: its details stay
        optional += ["name", "institution"]
    for name in optional:
        form.fields[name].required = False
    if not form.is_valid():
        errors = {
            name: [{**error, "code": error["code"] or "invalid"} for error in found]
            for name, found in form.errors.get_json_data().items()
        }
        detail = "; ".join(f"{name}: {found[0]['message']}" for name, found in errors.items())
        raise InvalidFields(f"The registration is not valid: {detail}", errors=errors)
    return form


def _texts(data: Mapping[str, Any]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for name in REGISTRATION_TEXT:
        value = data.get(name)
        if value is None:
            continue
        if not isinstance(value, str):  # a JSON number, list or object
            message = f"'{name}' is a string."
            raise InvalidFields(message, errors={name: [{"message": message, "code": "invalid"}]})
        texts[name] = value
    return texts


def _yes_or_no(value: object) -> object:
    """The form's choice for a JSON boolean or one of the usual words; anything else as it came,
    for the form to refuse as no choice."""
    if value is None or isinstance(value, bool):
        return "yes" if value else "no"
    word = str(value).strip().lower()
    if word in YES:
        return "yes"
    if word in NO:
        return "no"
    return value


__all__ = ["InvalidFields", "MissingFields", "registration_form"]
