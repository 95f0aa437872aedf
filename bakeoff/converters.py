"""The path converter of every number in the platform's addresses (ids, results versions)."""

from __future__ import annotations

from django.urls import register_converter


class Id:
    """At most 18 digits, below any database's largest integer (2**63 - 1): a longer number is an
    unknown address (404) instead of a lookup that overflows (SQLite raises, a 500)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    register_converter(Id, "id")
