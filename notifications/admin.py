from django.contrib import admin

from .models import Mail, MailPreference


@admin.register(Mail)
class MailAdmin(admin.ModelAdmin[Mail]):
    list_display = ("created_at", "kind", "to", "subject", "status", "attempts", "sent_at")
    list_filter = ("status", "kind", "bakeoff")
    search_fields = ("to", "subject")
    readonly_fields = tuple(f.name for f in Mail._meta.fields)


@admin.register(MailPreference)
class MailPreferenceAdmin(admin.ModelAdmin[MailPreference]):
    list_display = ("user", "reminders", "scored", "announcements")
