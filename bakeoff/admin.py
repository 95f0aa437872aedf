"""The Django admin, for superusers only (config/admin.py): organisers act through the organiser
pages, whose views go through the services and their checks.

What scoring stored is read-only here even for a superuser: gold versions, submissions and scores
(figures, counts, signature) can be looked at, never added, changed or deleted. A correction goes
through a new gold version or a re-score on the organiser pages, which keep the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from . import models

_M = TypeVar("_M", bound=Model)
_P = TypeVar("_P", bound=Model)


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    """Shown, never added, changed or deleted (every field is shown read-only)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline[_M, _P]):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Bakeoff)
class BakeoffAdmin(admin.ModelAdmin[models.Bakeoff]):
    list_display = ("name", "slug", "submission_deadline", "results_published", "auto_approve")
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}
    filter_horizontal = ("organisers",)


class GoldVersionInline(ReadOnlyInline[models.GoldVersion, models.Corpus]):
    model = models.GoldVersion
    fields = ("number", "checksum", "uploaded_at", "uploaded_by", "accepted_at", "note")


class TrackInline(admin.TabularInline[models.Track, models.Corpus]):
    model = models.Track
    extra = 0
    fields = ("condition", "slug", "max_runs")


@admin.register(models.Corpus)
class CorpusAdmin(admin.ModelAdmin[models.Corpus]):
    list_display = ("abbreviation", "name", "bakeoff", "institution", "encoding")
    list_filter = ("bakeoff",)
    readonly_fields = (
        "training_text_checksum",
        "training_words_checksum",
        "test_text_checksum",
        "dictionary_checksum",
    )
    inlines = (TrackInline, GoldVersionInline)


@admin.register(models.GoldVersion)
class GoldVersionAdmin(ReadOnlyAdmin[models.GoldVersion]):
    list_display = ("corpus", "number", "checksum", "uploaded_at", "accepted_at")


@admin.register(models.Track)
class TrackAdmin(admin.ModelAdmin[models.Track]):
    list_display = ("slug", "corpus", "condition", "max_runs")


class RegistrationInline(admin.TabularInline[models.Registration, models.Site]):
    model = models.Registration
    extra = 0
    fields = ("track", "status", "resources_statement", "decided_at")
    readonly_fields = ("decided_at",)


@admin.register(models.Site)
class SiteAdmin(admin.ModelAdmin[models.Site]):
    list_display = ("code", "name", "institution", "country", "bakeoff", "commercial_product")
    list_filter = ("bakeoff",)
    filter_horizontal = ("members",)
    readonly_fields = ("number",)
    inlines = (RegistrationInline,)


@admin.register(models.Registration)
class RegistrationAdmin(admin.ModelAdmin[models.Registration]):
    list_display = ("site", "track", "status", "created_at", "decided_at")
    list_filter = ("status", "site__bakeoff")


class ScoreInline(ReadOnlyInline[models.Score, models.Submission]):
    model = models.Score
    fields = ("metric", "gold_version", "recall", "precision", "f", "signature", "superseded_at")


@admin.register(models.Submission)
class SubmissionAdmin(ReadOnlyAdmin[models.Submission]):
    list_display = ("__str__", "status", "received_at", "attempts")
    list_filter = ("status", "kind", "track__corpus__bakeoff")
    inlines = (ScoreInline,)


@admin.register(models.Score)
class ScoreAdmin(ReadOnlyAdmin[models.Score]):
    list_display = ("submission", "metric", "gold_version", "f", "superseded_at")
