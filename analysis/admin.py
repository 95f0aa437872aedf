from django.contrib import admin

from bakeoff.admin import ReadOnlyAdmin

from .models import CriterionDiscrepancy, TrackAnalysis


@admin.register(TrackAnalysis)
class TrackAnalysisAdmin(ReadOnlyAdmin[TrackAnalysis]):
    """Written by the platform: shown, never edited."""

    list_display = ("track", "gold_version", "scheme_checksum", "computed_at", "error")


@admin.register(CriterionDiscrepancy)
class CriterionDiscrepancyAdmin(ReadOnlyAdmin[CriterionDiscrepancy]):
    """Written by the platform: shown, never edited."""

    list_display = ("training_corpus", "test_corpus", "value", "computed_at")
