from django.contrib import admin

from .models import CriterionDiscrepancy, TrackAnalysis


@admin.register(TrackAnalysis)
class TrackAnalysisAdmin(admin.ModelAdmin[TrackAnalysis]):
    list_display = ("track", "gold_version", "scheme_checksum", "computed_at", "error")
    readonly_fields = [f.name for f in TrackAnalysis._meta.fields]  # noqa: RUF012


@admin.register(CriterionDiscrepancy)
class CriterionDiscrepancyAdmin(admin.ModelAdmin[CriterionDiscrepancy]):
    list_display = ("training_corpus", "test_corpus", "value", "computed_at")
    readonly_fields = [f.name for f in CriterionDiscrepancy._meta.fields]  # noqa: RUF012
