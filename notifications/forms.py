from __future__ import annotations

from django import forms

from .models import MailPreference


class PreferenceForm(forms.ModelForm[MailPreference]):
    class Meta:
        model = MailPreference
        fields = ("reminders", "scored", "announcements")
