"""A bakeoff: its settings and timetable, announcement, data agreement, a new bakeoff from a
bundle and its next edition.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any, ClassVar

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from ..models import Bakeoff, Track, validate_single_line, validate_time_zone
from ..validators import validate_text
from ..zone_menu import ZoneSelect
from .fields import FREE_TEXT

TIMETABLE = [
    "registration_opens",
    "registration_closes",
    "training_released",
    "test_released",
    "submission_deadline",
]


class LocalDateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M")


class BakeoffForm(forms.ModelForm[Bakeoff]):
    """Times are entered in the bakeoff's own zone and stored in UTC."""

    class Meta:
        model = Bakeoff
        fields = (
            "name",
            "slug",
            "description",
            "time_zone",
            *TIMETABLE,
            "grace_minutes",
            "auto_approve",
            "hide_scores_until_publication",
            "development_runs_per_day",
            "development_table_public",
            "post_bakeoff_runs_per_day",
        )
        widgets: ClassVar[dict[str, forms.Widget]] = {
            "time_zone": ZoneSelect(),
            **{name: LocalDateTimeInput() for name in TIMETABLE},
        }
        # Django's form templates show help texts as they are: the links work.
        help_texts: ClassVar[dict[str, StrOrPromise]] = {
            "time_zone": _(
                "The timetable below is entered in this zone, and shown in it and in UTC."
            ),
            **{name: _("In the bakeoff's time zone.") for name in TIMETABLE},
            "development_runs_per_day": _(
                'Development runs a site may upload per track and day (<a href="/docs/phases.md">'
                "phases</a>)."
            ),
            "post_bakeoff_runs_per_day": _(
                "Post-bakeoff runs a site may upload per track and day, once a track is open for "
                'them (<a href="/docs/phases.md">phases</a>).'
            ),
        }
        # Django's own ("Bakeoff with this Slug already exists.") names the model and field.
        error_messages: ClassVar[dict[str, dict[str, StrOrPromise]]] = {
            "slug": {
                "unique": _(
                    "Another bakeoff already has this short name in its address; choose another."
                )
            }
        }
        labels: ClassVar[dict[str, StrOrPromise]] = {
            "name": _("Name"),
            "slug": _("Short name in addresses"),
            "description": _("Description"),
            "time_zone": _("Time zone"),
            "registration_opens": _("Registration opens"),
            "registration_closes": _("Registration closes"),
            "training_released": _("Training data released"),
            "test_released": _("Test data released"),
            "submission_deadline": _("Submission deadline"),
            "grace_minutes": _("Grace period (minutes)"),
            "auto_approve": _("Approve registrations at once"),
            "hide_scores_until_publication": _("Hide scores until publication"),
            "development_runs_per_day": _("Development runs per day"),
            "development_table_public": _("Public development table"),
            "post_bakeoff_runs_per_day": _("Post-bakeoff runs per day"),
        }

    def __init__(self, *args: Any, decide_late: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["grace_minutes"].required = False  # left empty: no grace period
        # left empty: the instance's limit, or the default (docs/phases.md)
        for name in ("development_runs_per_day", "post_bakeoff_runs_per_day"):
            self.fields[name].required = False
        if decide_late:
            # The new deadline comes before runs already received (services.timetable).
            self.fields["late_decision"] = forms.ChoiceField(
                label=_("Runs received after the new deadline"),
                choices=[
                    ("keep", _("Keep them as on time (say why below)")),
                    ("late", _("Mark them late: kept, never ranked")),
                ],
                widget=forms.RadioSelect,
                required=False,
            )
            self.fields["late_reason"] = forms.CharField(
                label=_("Why they count as on time"),
                required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
                help_text=_("Recorded in the audit trail with the decision."),
                validators=FREE_TEXT,
            )
        self.fields["name"].validators.append(validate_single_line)
        self.fields["description"].validators.append(validate_text)
        instance = self.instance
        if instance.pk:
            # Mailed with a change of the timetable to every registered site (services.timetable).
            self.fields["timetable_note"] = forms.CharField(
                label=_("Note to the registered sites"),
                required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
                help_text=_(
                    "Optional. A change of the timetable is mailed to every registered site "
                    "with this note."
                ),
                validators=FREE_TEXT,
            )
            names = [name for name in self.fields if name != "timetable_note"]
            names.insert(names.index("grace_minutes") + 1, "timetable_note")
            self.order_fields(names)
            zone = instance.zone
            for name in TIMETABLE:
                value = getattr(instance, name)
                self.initial[name] = timezone.localtime(value, zone).replace(tzinfo=None)

    def clean_grace_minutes(self) -> int:
        return int(self.cleaned_data.get("grace_minutes") or 0)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for limit in ("development_runs_per_day", "post_bakeoff_runs_per_day"):
            if cleaned.get(limit) is None:
                cleaned[limit] = getattr(self.instance, limit)
        name = cleaned.get("time_zone")
        if not name:
            return cleaned
        try:
            validate_time_zone(name)
        except forms.ValidationError:
            return cleaned
        zone = zoneinfo.ZoneInfo(name)
        for field in TIMETABLE:
            value = cleaned.get(field)
            if isinstance(value, datetime):
                # The widget's value was read as UTC; it was meant in the bakeoff's zone.
                cleaned[field] = value.replace(tzinfo=None).replace(tzinfo=zone)
                stored = getattr(self.instance, field) if self.instance.pk else None
                if stored is not None and cleaned[field] == stored.replace(second=0, microsecond=0):
                    # The widget shows minutes: an instant left as it was is not a change (else
                    # every save would tell the sites that the whole timetable moved).
                    cleaned[field] = stored
        times = [t for t in (cleaned.get(f) for f in TIMETABLE) if isinstance(t, datetime)]
        if len(times) == len(TIMETABLE):
            opens, closes, training, test, deadline = times
            if not opens <= closes:
                self.add_error("registration_closes", _("Registration must close after it opens."))
            if not test <= deadline:
                self.add_error("submission_deadline", _("The deadline must follow the test data."))
            if not training <= test:
                self.add_error("test_released", _("Test data comes after the training data."))
        return cleaned


class AnnouncementForm(forms.Form):
    subject = forms.CharField(max_length=200, label=_("Subject"), validators=FREE_TEXT)
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}), label=_("Text"), validators=FREE_TEXT
    )
    tracks = forms.ModelMultipleChoiceField(
        queryset=Track.objects.none(),
        required=False,
        label=_("Tracks"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Mailed to the sites registered for these tracks; none chosen: every site."),
    )

    def __init__(self, *args: Any, bakeoff: Bakeoff, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tracks"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus")


class LicenceForm(forms.Form):
    licence = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 10}),
        required=False,
        label=_("Data agreement"),
        help_text=_(
            "Sites accept a changed text again before their next download; empty: no agreement."
        ),
        validators=FREE_TEXT,
    )


class BundleForm(forms.Form):
    """A new bakeoff from a bundle (docs/bundles.md)."""

    bundle = forms.FileField(
        label=_("Bundle"),
        help_text=_(
            "A zip of <code>bundle.json</code> and the files it names "
            '(<a href="/docs/bundles.md">bundles</a>).'
        ),
    )
    slug = forms.SlugField(
        max_length=60,
        required=False,
        label=_("Short name in addresses"),
        help_text=_("Empty: the bundle's own."),
    )


class CloneForm(forms.Form):
    """The next edition of a bakeoff (docs/bundles.md#the-next-edition)."""

    name = forms.CharField(max_length=200, label=_("Name"), validators=[validate_single_line])
    slug = forms.SlugField(max_length=60, label=_("Short name in addresses"))
    shift_days = forms.IntegerField(
        min_value=-36500,
        max_value=36500,
        initial=365,
        label=_("Move the timetable by (days)"),
        help_text=_(
            "Every date moves by this many days, at the same time of day in the bakeoff's zone."
        ),
    )
    with_corpora = forms.BooleanField(
        required=False,
        initial=True,
        label=_("With the corpora"),
        help_text=_(
            "Copy each corpus: its files, tracks, run limits, data agreement and development "
            "set. Without them the draft has the settings, phases and timetable only."
        ),
    )
