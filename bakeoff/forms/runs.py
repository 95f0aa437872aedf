"""A site's runs: an upload, a withdrawal, the system-description paper."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import SubmissionPhase, Track
from .fields import FREE_TEXT


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("Run file"), help_text=_("In the corpus's encoding, one line per test line.")
    )
    phase = forms.ChoiceField(
        label=_("Phase"),
        choices=SubmissionPhase.choices,
        initial=SubmissionPhase.TEST,
        required=False,
        help_text=_(
            "Test runs are official; development runs segment the development text; "
            'post-bakeoff runs come after publication (<a href="/docs/phases.md">phases</a>).'
        ),
    )

    description = forms.CharField(
        label=_("System description"),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=2000,
        help_text=_(
            "A few lines: the method, and the resources it uses (dictionaries, corpora, "
            "pre-trained models). Required on an open track, in every phase: it is the statement "
            "of the extra resources. Shown on the run's page and, for test and post-bakeoff "
            "runs, in the track's exports."
        ),
        validators=FREE_TEXT,
    )

    def __init__(self, *args: Any, track: Track, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.track = track

    def clean_phase(self) -> str:
        return str(self.cleaned_data.get("phase") or SubmissionPhase.TEST)


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        required=False,
        max_length=500,
        label=_("Why (optional)"),
        help_text=_("Kept in the bakeoff's record with the withdrawal."),
        validators=FREE_TEXT,
    )


class PaperForm(forms.Form):
    """A system-description paper: a PDF, or a link to one."""

    file = forms.FileField(required=False, label=_("PDF"), help_text=_("A PDF of at most 10 MB."))
    url = forms.URLField(
        required=False,
        max_length=500,
        label=_("or a link"),
        assume_scheme="https",
        help_text=_("Where the paper is published (https://...)."),
    )
    title = forms.CharField(required=False, max_length=300, label=_("Title"), validators=FREE_TEXT)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("file") and not cleaned.get("url") and not self.errors:
            raise forms.ValidationError(_("Attach a PDF or give a link to the paper."))
        if cleaned.get("file") and cleaned.get("url"):
            raise forms.ValidationError(_("Attach a PDF or give a link, not both."))
        return cleaned
