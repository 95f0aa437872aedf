from django.contrib import admin

from .models import Publication, TrackRanking


@admin.register(Publication)
class PublicationAdmin(admin.ModelAdmin[Publication]):
    list_display = ("bakeoff", "mode", "decided_at", "decided_by")
    readonly_fields = ("aliases",)


@admin.register(TrackRanking)
class TrackRankingAdmin(admin.ModelAdmin[TrackRanking]):
    list_display = ("track", "gold_version", "ranked_runs", "best_f", "computed_at")
    readonly_fields = [f.name for f in TrackRanking._meta.fields]  # noqa: RUF012
