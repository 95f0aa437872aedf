"""The API's OpenAPI 3 description, generated from its code by drf-spectacular (served at
``/api/schema/``, browsable at ``/api/docs/``).

The serializers here describe what the views answer and read; they validate nothing (the pages'
forms and the services do, ``bakeoff/api/forms.py``). Every operation may answer the errors of
``bakeoff/error_codes.py``: ``add_error_answers`` adds one answer per status, whose ``code`` is
one of that status's codes, so a schema fuzzer checks every error against the same list that
docs/api-errors.md is tested against.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from .. import error_codes
from ..models import SubmissionPhase

SLUG = "^[-a-zA-Z0-9_]+$"  # Django's slug converter
BAKEOFF = OpenApiParameter(
    "bakeoff", OpenApiTypes.STR, OpenApiParameter.PATH, description="slug", pattern=SLUG
)
TRACK = OpenApiParameter(
    "track", OpenApiTypes.STR, OpenApiParameter.PATH, description="slug", pattern=SLUG
)
CORPUS = OpenApiParameter(
    "corpus", OpenApiTypes.STR, OpenApiParameter.PATH, description="abbreviation"
)
RUN = OpenApiParameter(
    "pk",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="the run's id",
    pattern="^[0-9]{1,18}$",
)
FILE_KIND = OpenApiParameter(
    "kind",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=[
        "training_text",
        "training_words",
        "test_text",
        "gold",
        "development_text",
        "development_gold",
    ],
)
PAGE = OpenApiParameter("page", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False)
PAGE_SIZE = OpenApiParameter(
    "page_size", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False, description="up to 500"
)


class Figures(serializers.DictField):
    """A score's figures, keyed as ``bakeoff/figures.py`` names them."""

    child = serializers.JSONField()


class RunAnswer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.URLField()
    track = serializers.CharField()
    site = serializers.CharField()
    run_number = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(choices=SubmissionPhase.values)
    official = serializers.BooleanField()
    status = serializers.CharField()
    received_at = serializers.DateTimeField()
    checksum = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField(required=False, help_text="why a failed run failed")
    results_version = serializers.IntegerField(
        required=False, help_text="after publication: the results version its scores come from"
    )
    scores = Figures(required=False, help_text="only where the pages would show them")
    gold_version = serializers.IntegerField(required=False)
    development_gold_checksum = serializers.CharField(required=False)
    live_scores = Figures(required=False, help_text="organisers only, after publication")
    live_gold_version = serializers.IntegerField(required=False)


class RunPage(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RunAnswer(many=True)


class UploadRequest(serializers.Serializer[Any]):
    file = serializers.FileField()
    description = serializers.CharField(required=False, allow_blank=True)
    phase = serializers.ChoiceField(choices=SubmissionPhase.values, required=False)


class WithdrawRequest(serializers.Serializer[Any]):
    reason = serializers.CharField(required=False, allow_blank=True)


class RegistrationRequest(serializers.Serializer[Any]):
    name = serializers.CharField(required=False, help_text="required for a new site")
    institution = serializers.CharField(required=False, help_text="required for a new site")
    country = serializers.CharField(required=False)
    commercial_product = serializers.BooleanField(required=False)
    tracks = serializers.ListField(child=serializers.CharField(), help_text="track slugs")
    resources_statement = serializers.CharField(required=False, help_text="for open tracks")


class RegistrationOfTrack(serializers.Serializer[Any]):
    track = serializers.CharField()
    status = serializers.CharField()
    post_bakeoff = serializers.BooleanField()


class RegistrationAnswer(serializers.Serializer[Any]):
    site = serializers.CharField()
    name = serializers.CharField()
    institution = serializers.CharField()
    registrations = RegistrationOfTrack(many=True)


class BakeoffSummary(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    url = serializers.URLField()
    time_zone = serializers.CharField(help_text="the bakeoff's zone (IANA)")
    submission_deadline = serializers.DateTimeField()


class Timetable(serializers.Serializer[Any]):
    registration_opens = serializers.DateTimeField()
    registration_closes = serializers.DateTimeField()
    training_released = serializers.DateTimeField()
    test_released = serializers.DateTimeField()
    submission_deadline = serializers.DateTimeField()
    accepts_runs_until = serializers.DateTimeField(help_text="the deadline and its grace period")
    results_published = serializers.DateTimeField(allow_null=True)


class PhaseAnswer(serializers.Serializer[Any]):
    phase = serializers.ChoiceField(choices=SubmissionPhase.values)
    label = serializers.CharField()  # type: ignore[assignment]
    official = serializers.BooleanField()


class TrackAnswer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    corpus = serializers.CharField()
    condition = serializers.CharField()
    max_runs = serializers.IntegerField()
    post_bakeoff_open = serializers.BooleanField()
    run_limits = serializers.DictField(
        child=serializers.IntegerField(), help_text="by phase: per track (test) or per day"
    )


class FileAnswer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    name = serializers.CharField()
    url = serializers.URLField()
    available = serializers.BooleanField()
    refusal = serializers.CharField(required=False, help_text="the code of the refusal")
    size = serializers.IntegerField(required=False, help_text="bytes")
    sha256 = serializers.CharField(required=False)


class CorpusAnswer(serializers.Serializer[Any]):
    abbreviation = serializers.CharField()
    name = serializers.CharField()
    institution = serializers.CharField()
    standard = serializers.CharField(allow_blank=True)
    encoding = serializers.CharField()
    tracks = serializers.ListField(child=serializers.CharField())
    licence = serializers.CharField(allow_blank=True)
    licence_checksum = serializers.CharField(allow_null=True)
    licence_accepted = serializers.BooleanField()
    files = FileAnswer(many=True)


class BakeoffAnswer(BakeoffSummary):
    description = serializers.CharField(allow_blank=True)
    timetable = Timetable()
    published = serializers.BooleanField()
    phases = PhaseAnswer(many=True)
    tracks = TrackAnswer(many=True)
    corpora = CorpusAnswer(many=True)


class Acceptance(serializers.Serializer[Any]):
    site = serializers.CharField()
    accepted_by = serializers.CharField(allow_null=True)
    accepted_at = serializers.DateTimeField()


class AgreementAnswer(serializers.Serializer[Any]):
    corpus = serializers.CharField()
    licence_checksum = serializers.CharField()
    acceptances = Acceptance(many=True)


class SiteRegistration(serializers.Serializer[Any]):
    track = serializers.CharField()
    status = serializers.CharField()
    post_bakeoff = serializers.BooleanField()
    refusal_reason = serializers.CharField(allow_blank=True)


class SiteAnswer(serializers.Serializer[Any]):
    site = serializers.CharField()
    name = serializers.CharField()
    institution = serializers.CharField()
    country = serializers.CharField(allow_blank=True)
    commercial_product = serializers.BooleanField()
    members = serializers.ListField(child=serializers.CharField())
    registrations = SiteRegistration(many=True)


def _error_schema(status: int) -> dict[str, Any]:
    return {
        "type": "object",
        "description": "docs/api-errors.md",
        "properties": {
            "code": {"type": "string", "enum": error_codes.codes_of(status)},
            "detail": {"type": "string", "description": "in English"},
            "message": {"type": "string", "description": "in the request's Accept-Language"},
        },
        "required": ["code", "detail"],
        "additionalProperties": True,
    }


def add_error_answers(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: every operation's answers list every error status,
    each a component ``Error<status>`` whose ``code`` is one of that status's codes."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    for status in error_codes.statuses():
        components[f"Error{status}"] = _error_schema(status)
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status in error_codes.statuses():
                operation["responses"].setdefault(
                    str(status),
                    {
                        "description": ", ".join(error_codes.codes_of(status)),
                        "content": {
                            "application/json": {
                                "schema": {"$ref": f"#/components/schemas/Error{status}"}
                            }
                        },
                    },
                )
    return result
