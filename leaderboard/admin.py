from django.contrib import admin

from bakeoff.admin import ReadOnlyAdmin

from .models import Publication, TrackRanking


@admin.register(Publication)
class PublicationAdmin(admin.ModelAdmin[Publication]):
    list_display = ("bakeoff", "mode", "decided_at", "decided_by")
    readonly_fields = ("aliases",)


@admin.register(TrackRanking)
class TrackRankingAdmin(ReadOnlyAdmin[TrackRanking]):
    """Computed from the stored scores: shown, never edited."""

    list_display = ("track", "gold_version", "ranked_runs", "best_f", "computed_at")
