from django.contrib import admin

from .models import Committee


@admin.register(Committee)
class CommitteeAdmin(admin.ModelAdmin[Committee]):
    list_display = ("corpus", "gold_version", "number", "kind", "k", "seed", "status")
    list_filter = ("status", "kind")
    exclude = ("data",)  # the difficulty of every gold word: large, and written by the build
    readonly_fields = ("signature", "hardest", "members_done", "attempts", "finished_at")
