"""Corpora and their tracks: a corpus's description and files, its gold and domain labels, a
track's condition, run limit and bucket scheme.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import BucketScheme, Condition, Encoding
from .fields import FREE_TEXT, ONE_LINE

BUCKET_SCHEME_HELP = _(
    "How the analysis cuts the runs into attribute buckets: the project's own definitions, or "
    "InterpretEval's, whose buckets line up with the tables of the RethinkCWS paper "
    '(<a href="/docs/measures/buckets.md">bucket schemes</a>).'
)


class CorpusDescriptionForm(forms.Form):
    """What describes a corpus, given when it is added and edited later."""

    name = forms.CharField(max_length=200, label=_("Name"), validators=ONE_LINE)
    institution = forms.CharField(
        max_length=200,
        label=_("Institution"),
        help_text=_("The institution providing it."),
        validators=ONE_LINE,
    )
    standard = forms.CharField(
        max_length=200, required=False, label=_("Segmentation standard"), validators=ONE_LINE
    )


class CorpusForm(CorpusDescriptionForm):
    field_order = ("name", "abbreviation")  # then the description's other fields

    abbreviation = forms.RegexField(
        regex=r"^[A-Za-z][A-Za-z0-9]{0,15}$",
        max_length=16,
        label=_("Abbreviation"),
        help_text=_("AS, PK, MSR, CTB..."),
    )
    encoding = forms.ChoiceField(
        choices=Encoding.choices, initial=Encoding.UTF8, label=_("Encoding")
    )
    gold = forms.FileField(label=_("Gold"), help_text=_("The segmented test set."))
    test_text = forms.FileField(
        required=False,
        label=_("Test text"),
        help_text=_("Derived from the gold (whitespace removed) when omitted."),
    )
    training_words = forms.FileField(
        required=False, label=_("Training word list"), help_text=_("One word a line.")
    )
    training_text = forms.FileField(
        required=False, label=_("Training text"), help_text=_("The segmented training corpus.")
    )
    domain_labels = forms.FileField(
        required=False,
        label=_("Domain labels"),
        help_text=_(
            "Optional: a domain label for each test line, one a line (news, weibo...); "
            "every run then has its figures per domain."
        ),
    )
    closed_track = forms.BooleanField(initial=True, required=False, label=_("Closed track"))
    open_track = forms.BooleanField(initial=True, required=False, label=_("Open track"))
    max_runs = forms.IntegerField(min_value=1, max_value=99, initial=2, label=_("Runs per site"))
    accept_differences = forms.BooleanField(
        required=False,
        label=_("Accept differences"),
        help_text=_("Accept at once every line where the gold and the test text disagree."),
    )
    licence = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        required=False,
        label=_("Data agreement"),
        help_text=_("A member of each site accepts this text before the first download."),
        validators=FREE_TEXT,
    )

    def conditions(self) -> list[str]:
        chosen: list[str] = []
        if self.cleaned_data.get("closed_track"):
            chosen.append(Condition.CLOSED)
        if self.cleaned_data.get("open_track"):
            chosen.append(Condition.OPEN)
        return chosen


class CorpusEditForm(CorpusDescriptionForm):
    notes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        label=_("Notes"),
        validators=FREE_TEXT,
    )


class GoldForm(forms.Form):
    gold = forms.FileField(label=_("Gold"), help_text=_("In the corpus's declared encoding."))
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label=_("Note"),
        validators=FREE_TEXT,
    )
    accept_differences = forms.BooleanField(required=False, label=_("Accept differences"))


class DomainLabelsForm(forms.Form):
    domain_labels = forms.FileField(
        label=_("Domain labels"),
        help_text=_(
            "One label a line, as many lines as the test text, in the corpus's declared "
            "encoding. Replaces the labels the corpus has; every score gets its figures per domain."
        ),
    )


class TrackForm(forms.Form):
    condition = forms.ChoiceField(choices=Condition.choices, label=_("Condition"))
    max_runs = forms.IntegerField(min_value=1, max_value=99, initial=2, label=_("Runs per site"))
    bucket_scheme = forms.ChoiceField(
        choices=BucketScheme.choices,
        label=_("Bucket scheme"),
        initial=BucketScheme.DEFAULT,
        required=False,
        help_text=BUCKET_SCHEME_HELP,
    )

    def clean_bucket_scheme(self) -> str:
        return str(self.cleaned_data.get("bucket_scheme") or BucketScheme.DEFAULT)


class TrackSchemeForm(forms.Form):
    bucket_scheme = forms.ChoiceField(
        choices=BucketScheme.choices, label=_("Bucket scheme"), help_text=BUCKET_SCHEME_HELP
    )
    max_runs = forms.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        label=_("Runs per site"),
        help_text=_("Runs each site may send; empty: unchanged."),
    )
