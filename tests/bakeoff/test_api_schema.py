"""The API's OpenAPI description: served, valid, and naming every operation of the API's URLs
with every error status of the one list of codes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from bakeoff import error_codes

pytestmark = pytest.mark.django_db


def _schema() -> dict[str, Any]:
    generator = SchemaGenerator()  # type: ignore[no-untyped-call]
    generated = generator.get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    assert isinstance(generated, dict)
    return generated


def _api_paths() -> set[str]:
    """Every operation's path of bakeoff/api/urls.py, as OpenAPI writes it."""
    paths = set()
    included = [p for p in get_resolver().url_patterns if str(p.pattern) == "api/"]
    assert len(included) == 2  # the bakeoff's operations and the leaderboard's results
    patterns = []
    for api in included:
        assert isinstance(api, URLResolver)
        patterns += api.url_patterns
    for pattern in patterns:
        assert isinstance(pattern, URLPattern)
        route = str(pattern.pattern)
        if route in {"schema/", "docs/"}:
            continue
        paths.add("/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))
    return paths


def test_the_schema_is_valid_openapi() -> None:
    validate_schema(_schema())  # type: ignore[no-untyped-call]


def test_the_schema_names_every_operation_of_the_api() -> None:
    paths = _schema()["paths"]
    assert set(paths) == _api_paths()
    for path, operations in paths.items():
        for method, operation in operations.items():
            assert operation.get("summary"), (method, path)
            assert operation["operationId"]


def test_every_operation_lists_every_error_status_with_its_codes() -> None:
    schema = _schema()
    for operations in schema["paths"].values():
        for operation in operations.values():
            for status in error_codes.statuses():
                assert str(status) in operation["responses"]
    for status in error_codes.statuses():
        code = schema["components"]["schemas"][f"Error{status}"]["properties"]["code"]
        assert code["enum"] == error_codes.codes_of(status)


def test_the_schema_is_served_to_anyone(client: Client) -> None:
    answer = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    assert "/api/bakeoffs/{bakeoff}/registrations/" in answer.json()["paths"]


def test_the_browsable_page_loads_nothing_from_outside(client: Client) -> None:
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "swagger-ui-bundle.js" in html
    assert "https://" not in html and "http://" not in html
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert "/api/schema/" in script.content.decode()
