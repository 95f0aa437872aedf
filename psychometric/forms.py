"""The organiser's request for a committee: the validation boundary, typed values out."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.psychometric.committee import DEFAULT_K

from .models import CommitteeKind
from .services import MAX_K


class CommitteeForm(forms.Form):
    kind = forms.ChoiceField(
        choices=CommitteeKind.choices, initial=CommitteeKind.CRF, label=_("Kind")
    )
    k = forms.IntegerField(
        label=_("K"), min_value=1, max_value=MAX_K, initial=DEFAULT_K, help_text=_("CRF members.")
    )
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1, label=_("Seed"))

    def __init__(
        self, data: Mapping[str, object] | None = None, *, has_training_text: bool = True
    ) -> None:
        super().__init__(data)
        if not has_training_text:
            self.fields["kind"].initial = CommitteeKind.RUNS
