"""The API's JSON parser: DRF's, with a bound on nesting checked before any recursion.

Python's JSON decoder recurses once per level of nesting, so a body of 10,000 ``[`` ran out of
stack (a RecursionError, answered 500). No request of the API nests more than a few levels; a
body deeper than ``MAX_DEPTH`` is refused 400 (``json_too_deep``) by a scan that does not
recurse. A string with a lone UTF-16 surrogate (``"\\ud800"``) decodes to text no database
stores, and is refused as a parse error (docs/api-errors.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

MAX_DEPTH = 32

# A string (skipped whole, escapes included) or a bracket that opens or closes a level. The string
# is matched as runs of plain characters between escapes: an alternation per character took nine
# times as long on a 100 KB description.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


def nesting_depth(text: str, *, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of arrays and objects in a JSON text, counted without recursion; the
    count stops once it passes ``limit``.

    >>> nesting_depth('{"tracks": ["pku-closed"], "name": "[[["}')
    2
    """
    depth = deepest = 0
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif char in "]}":
            depth -= 1
    return deepest


def _has_surrogate(value: Any) -> bool:
    """Whether a string of the parsed value (a key or a value) holds a lone surrogate; its depth
    is bounded already."""
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, Mapping):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(item) for item in value)
    return False


class BoundedJSONParser(JSONParser):
    """JSON bodies nested at most ``MAX_DEPTH`` deep, their strings text (no lone surrogate)."""

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = str((parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET)
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode(encoding)
        except (LookupError, UnicodeDecodeError) as error:
            detail = f"JSON parse error - the body does not decode as {encoding}: {error}"
            raise ParseError(detail) from None
        if nesting_depth(text) > MAX_DEPTH:
            raise ParseError(
                f"The JSON body is nested more than {MAX_DEPTH} levels deep; no request of this "
                "API nests more than a few.",
                code="json_too_deep",
            )
        try:
            data = json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        if _has_surrogate(data):
            raise ParseError(
                "JSON parse error - a string holds half of a UTF-16 surrogate pair (such as "
                "\\ud800), which is no character; send text as UTF-8.",
            )
        return data
