"""The Django admin is for the platform's superusers only.

Organisers act through the organiser pages, which go through the services and their checks; an
organiser who is staff (to create bakeoffs) has no access here. Even for a superuser, what scoring
stored is read-only: scores (figures, counts, signature), gold versions and submissions are shown,
never added, changed or deleted (each app's admin.py says so).
"""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest


class SuperuserAdminSite(AdminSite):
    site_header = "Bakeoff administration (superusers)"

    def has_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(user.is_active and getattr(user, "is_superuser", False))


class SuperuserAdminConfig(AdminConfig):
    default_site = "config.admin.SuperuserAdminSite"
