"""The organiser's publication form: when, and with names or codes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from bakeoff.forms import LocalDateTimeInput
from bakeoff.models import Bakeoff

from .models import PublicationMode


class PublishForm(forms.Form):
    at = forms.DateTimeField(
        label=_("Publish at"),
        widget=LocalDateTimeInput(),
        help_text=_("In the bakeoff's time zone; not before the submission deadline."),
    )
    mode = forms.ChoiceField(
        choices=PublicationMode.choices,
        initial=PublicationMode.NAMES,
        widget=forms.RadioSelect,
        label=_("Sites shown"),
    )
    # Set by the confirmation page: the organiser has seen what will become visible.
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput, label=_("Confirmed"))

    def __init__(self, *args: Any, bakeoff: Bakeoff, now: datetime, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bakeoff = bakeoff
        start = max(now, bakeoff.submission_deadline)
        self.initial.setdefault(
            "at", timezone.localtime(start, bakeoff.zone).replace(tzinfo=None, second=0)
        )

    def clean_at(self) -> datetime:
        value: datetime = self.cleaned_data["at"]
        # The widget's value was read in the server's zone; it was meant in the bakeoff's.
        return value.replace(tzinfo=None).replace(tzinfo=self.bakeoff.zone)


class ErratumForm(forms.Form):
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        label=_("Note"),
        help_text=_("Shown with the new version: what the erratum corrects and why."),
    )
