"""The Django admin. Staff organisers see only the objects of the bakeoffs they organise."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeVar

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from . import models

_M = TypeVar("_M", bound=Model)


class OrganisedOnly(admin.ModelAdmin[_M]):
    """Restrict the change list to the requesting organiser's bakeoffs (superusers see all)."""

    bakeoff_path = "bakeoff"

    def get_queryset(self, request: HttpRequest) -> QuerySet[_M]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.bakeoff_path}__organisers": request.user}).distinct()


@admin.register(models.Bakeoff)
class BakeoffAdmin(admin.ModelAdmin[models.Bakeoff]):
    list_display = ("name", "slug", "submission_deadline", "results_published", "auto_approve")
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}
    filter_horizontal = ("organisers",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[models.Bakeoff]:
        queryset = super().get_queryset(request)
        user = request.user
        if user.is_superuser:
            return queryset
        if not user.is_authenticated:  # the admin lets only staff in
            return queryset.none()
        return queryset.filter(organisers=user)


class GoldVersionInline(admin.TabularInline[models.GoldVersion, models.Corpus]):
    model = models.GoldVersion
    extra = 0
    fields = ("number", "checksum", "uploaded_at", "uploaded_by", "accepted_at", "note")
    readonly_fields = ("number", "checksum", "uploaded_at", "uploaded_by", "accepted_at")
    can_delete = False


class TrackInline(admin.TabularInline[models.Track, models.Corpus]):
    model = models.Track
    extra = 0
    fields = ("condition", "slug", "max_runs")


@admin.register(models.Corpus)
class CorpusAdmin(OrganisedOnly[models.Corpus]):
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
class GoldVersionAdmin(OrganisedOnly[models.GoldVersion]):
    bakeoff_path = "corpus__bakeoff"
    list_display = ("corpus", "number", "checksum", "uploaded_at", "accepted_at")
    readonly_fields = ("differences", "checksum")


@admin.register(models.Track)
class TrackAdmin(OrganisedOnly[models.Track]):
    bakeoff_path = "corpus__bakeoff"
    list_display = ("slug", "corpus", "condition", "max_runs")


class RegistrationInline(admin.TabularInline[models.Registration, models.Site]):
    model = models.Registration
    extra = 0
    fields = ("track", "status", "resources_statement", "decided_at")
    readonly_fields = ("decided_at",)


@admin.register(models.Site)
class SiteAdmin(OrganisedOnly[models.Site]):
    list_display = ("code", "name", "institution", "country", "bakeoff", "commercial_product")
    list_filter = ("bakeoff",)
    filter_horizontal = ("members",)
    readonly_fields = ("number",)
    inlines = (RegistrationInline,)


@admin.register(models.Registration)
class RegistrationAdmin(OrganisedOnly[models.Registration]):
    bakeoff_path = "site__bakeoff"
    list_display = ("site", "track", "status", "created_at", "decided_at")
    list_filter = ("status", "site__bakeoff")


class ScoreInline(admin.TabularInline[models.Score, models.Submission]):
    model = models.Score
    extra = 0
    fields = ("metric", "gold_version", "recall", "precision", "f", "signature", "superseded_at")
    readonly_fields = fields
    can_delete = False


@admin.register(models.Submission)
class SubmissionAdmin(OrganisedOnly[models.Submission]):
    bakeoff_path = "track__corpus__bakeoff"
    list_display = ("__str__", "status", "received_at", "attempts")
    list_filter = ("status", "kind", "track__corpus__bakeoff")
    # Status changes belong to services; the admin shows them.
    readonly_fields = (
        "status",
        "reason",
        "status_changed_at",
        "attempts",
        "checksum",
        "size_bytes",
        "received_at",
        "run_number",
        "max_runs",
    )
    inlines = (ScoreInline,)


@admin.register(models.Score)
class ScoreAdmin(OrganisedOnly[models.Score]):
    bakeoff_path = "submission__track__corpus__bakeoff"
    list_display = ("submission", "metric", "gold_version", "f", "superseded_at")
    readonly_fields = ("result", "signature")
