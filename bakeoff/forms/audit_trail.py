"""Which entries of a bakeoff's audit trail to read."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .. import audit
from ..models import Bakeoff, Site, Track


class AuditFilterForm(forms.Form):
    """Which entries of a bakeoff's audit trail to read: all by default."""

    action = forms.ChoiceField(required=False, label=_("Action"))
    track = forms.ModelChoiceField(queryset=Track.objects.none(), required=False, label=_("Track"))
    site = forms.ModelChoiceField(queryset=Site.objects.none(), required=False, label=_("Site"))
    since = forms.DateField(
        # "From" alone is the run page's column "computed from": this one is a date
        required=False,
        label=pgettext_lazy("first day", "From"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    until = forms.DateField(
        required=False, label=_("Until"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, bakeoff: Bakeoff, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        action = self.fields["action"]
        assert isinstance(action, forms.ChoiceField)
        action.choices = [("", _("every action")), *audit.LABELS.items()]
        track = self.fields["track"]
        assert isinstance(track, forms.ModelChoiceField)
        track.queryset = Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus")
        track.empty_label = _("every track")
        site = self.fields["site"]
        assert isinstance(site, forms.ModelChoiceField)
        site.queryset = Site.objects.filter(bakeoff=bakeoff).order_by("number", "name")
        site.empty_label = _("every site")
