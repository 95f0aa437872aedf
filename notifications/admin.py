from django.contrib import admin

from bakeoff.admin import ReadOnlyAdmin

from .models import Mail, MailPreference


@admin.register(Mail)
class MailAdmin(ReadOnlyAdmin[Mail]):
    """Written by the platform: shown, never edited."""

    list_display = ("created_at", "kind", "to", "subject", "status", "attempts", "sent_at")
    list_filter = ("status", "kind", "bakeoff")
    search_fields = ("to", "subject")


@admin.register(MailPreference)
class MailPreferenceAdmin(admin.ModelAdmin[MailPreference]):
    list_display = ("user", "reminders", "scored", "announcements")
