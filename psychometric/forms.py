"""The organiser's request for a committee: the validation boundary, typed values out."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext_lazy as _

from bakeoff.errors import interpolate
from scoring.psychometric.committee import DEFAULT_K

from .models import CommitteeKind
from .services import MAX_K


class CommitteeForm(forms.Form):
    kind = forms.ChoiceField(
        choices=CommitteeKind.choices, initial=CommitteeKind.CRF, label=_("Kind")
    )
    # K is the number of CRF members; a committee of runs has one member per scored run, so a
    # K given with it would be silently ignored: refused instead.
    k = forms.IntegerField(
        label=_("K"),
        min_value=1,
        max_value=MAX_K,
        required=False,
        help_text=interpolate(
            _(
                "CRF members (%(default)s when empty). A committee of runs has one member per "
                "scored run: leave K empty."
            ),
            default=DEFAULT_K,
        ),
    )
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1, label=_("Seed"))

    def __init__(
        self, data: Mapping[str, object] | None = None, *, has_training_text: bool = True
    ) -> None:
        super().__init__(data)
        if not has_training_text:
            self.fields["kind"].initial = CommitteeKind.RUNS

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        if cleaned.get("kind") == CommitteeKind.RUNS and cleaned.get("k") is not None:
            self.add_error(
                "k",
                _(
                    "A committee of the corpus's runs has one member per scored run: K is for "
                    "CRF committees only; leave it empty."
                ),
            )
        elif cleaned.get("kind") == CommitteeKind.CRF and cleaned.get("k") is None:
            cleaned["k"] = DEFAULT_K
        return cleaned
