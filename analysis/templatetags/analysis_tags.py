"""Template helpers of the analysis pages."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.attributes import ATTRIBUTES

register = template.Library()


@register.filter
def in_attribute_order(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """A stored dict keyed by attribute, as (name, value) pairs in SPEC §6 order: PostgreSQL's
    jsonb keeps no key order."""
    return [(name, values[name]) for name in ATTRIBUTES if name in values]
