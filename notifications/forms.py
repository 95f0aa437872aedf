from __future__ import annotations

from typing import ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from .models import MailPreference


class PreferenceForm(forms.ModelForm[MailPreference]):
    class Meta:
        model = MailPreference
        fields = ("reminders", "scored", "announcements")
        labels: ClassVar[dict[str, StrOrPromise]] = {
            "reminders": _("Reminders"),
            "scored": _("Scores"),
            "announcements": _("Announcements"),
        }
