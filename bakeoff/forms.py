"""Forms: the validation boundary of the pages. They return typed values; services apply rules."""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime
from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy
from django_stubs_ext import StrOrPromise

from . import audit
from .errors import interpolate
from .models import (
    Bakeoff,
    BucketScheme,
    Condition,
    Encoding,
    Site,
    SubmissionPhase,
    Track,
    validate_single_line,
    validate_time_zone,
)
from .services.registration import REASON_NEEDED
from .validators import validate_text
from .zone_menu import ZoneSelect

# Django's label suffix ("Name:"). Its simplified-Chinese catalogue keeps the Latin colon ("名称:")
# where the traditional one has the full-width "：": ours translate it for both.
gettext_noop(":")

BUCKET_SCHEME_HELP = _(
    "How the analysis cuts the runs into attribute buckets: the project's own definitions, or "
    "InterpretEval's, whose buckets line up with the tables of the RethinkCWS paper "
    '(<a href="/docs/measures/buckets.md">bucket schemes</a>).'
)

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


ONE_LINE = [validate_single_line]
# Free text (descriptions, reasons, statements, notes): what the services check too.
FREE_TEXT = [validate_text]


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


class TracksForm(forms.Form):
    """Tracks of the bakeoff to register for, each with the statement of resources given."""

    tracks = forms.ModelMultipleChoiceField(
        queryset=Track.objects.none(), widget=forms.CheckboxSelectMultiple, label=_("Tracks")
    )

    def __init__(self, *args: Any, bakeoff: Bakeoff, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tracks"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus")

    def track_statements(self) -> dict[Track, str]:
        statement = self.cleaned_data.get("resources_statement", "")
        return {track: statement for track in self.cleaned_data.get("tracks", [])}


class RegistrationForm(TracksForm):
    field_order = ("name", "institution", "country", "commercial_product", "tracks")

    name = forms.CharField(max_length=200, label=_("Site (team) name"), validators=ONE_LINE)
    institution = forms.CharField(max_length=200, label=_("Institution"), validators=ONE_LINE)
    country = forms.CharField(max_length=100, label=_("Country"), validators=ONE_LINE)
    commercial_product = forms.TypedChoiceField(
        label=_("Is your system part of a commercial product?"),
        choices=[("yes", _("Yes")), ("no", _("No"))],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
    )
    resources_statement = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        label=_("Statement of resources"),
        help_text=_(
            "Required for open tracks: the extra resources (dictionaries, corpora...) used."
        ),
        validators=FREE_TEXT,
    )


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


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("approve", _("Approve")), ("refuse", _("Refuse"))], label=_("Decision")
    )
    reason = forms.CharField(
        required=False, max_length=500, label=_("Reason"), validators=FREE_TEXT
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("decision") == "refuse" and not str(cleaned.get("reason") or "").strip():
            self.add_error("reason", REASON_NEEDED)
        return cleaned


class RefusalReasonForm(forms.Form):
    """The reason of a registration refused without one."""

    reason = forms.CharField(max_length=500, label=_("Reason"), validators=FREE_TEXT)


# What separates the addresses of a pasted list: line breaks, spaces, commas and semicolons (in
# ASCII or full width, as a Chinese spreadsheet or mail program copies them) and 、.
ADDRESS_SEPARATORS = re.compile(r"[\s,;，；、]+")
MAX_ADDRESSES = 200


class InviteForm(forms.Form):
    email = forms.CharField(
        label=_("E-mail addresses"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "One or more, as pasted from a list: one a line, or separated by commas. Every "
            "address is invited, or none if one is refused."
        ),
        max_length=MAX_ADDRESSES * 100,
    )
    site = forms.ModelChoiceField(
        queryset=Site.objects.none(),
        required=False,
        label=_("Site"),
        empty_label=_("(no site: the person registers one)"),
        help_text=_("The site the person joins."),
    )

    def __init__(self, *args: Any, bakeoff: Bakeoff, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["site"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Site.objects.filter(bakeoff=bakeoff).order_by("name")

    def clean_email(self) -> list[str]:
        """The addresses, in their order, each once (the service checks each one)."""
        seen: dict[str, str] = {}
        for address in ADDRESS_SEPARATORS.split(str(self.cleaned_data.get("email") or "")):
            if address and address.lower() not in seen:
                seen[address.lower()] = address
        if not seen:
            raise forms.ValidationError(_("Give at least one e-mail address."))
        if len(seen) > MAX_ADDRESSES:
            raise forms.ValidationError(
                interpolate(_("At most %(count)d addresses at a time."), count=MAX_ADDRESSES)
            )
        return list(seen.values())


class InviteSitesForm(forms.Form):
    file = forms.FileField(
        label=_("CSV of sites"),
        help_text=_("One site a line: site name, institution, contact e-mail (UTF-8)."),
    )


class InvitedAccountForm(forms.Form):
    """The account an invited person makes: a user name and a password (the address is the
    invited one, verified by the link)."""

    username = forms.CharField(max_length=150, label=_("User name"))
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput)
    password2 = forms.CharField(label=_("Password (again)"), widget=forms.PasswordInput)

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"].strip()
        field = User._meta.get_field("username")
        for validator in field.validators:
            validator(username)
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This user name is taken; choose another."))
        return username

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            try:
                password_validation.validate_password(first)
            except forms.ValidationError as error:
                self.add_error("password1", error)
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


class OrganiserForm(forms.Form):
    account = forms.CharField(
        max_length=254,
        label=_("User name or e-mail address"),
        help_text=_("Of an existing account; it becomes an organiser of this bakeoff."),
    )


class CorpusEditForm(CorpusDescriptionForm):
    notes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        label=_("Notes"),
        validators=FREE_TEXT,
    )


class SiteForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Site (team) name"), validators=ONE_LINE)
    institution = forms.CharField(max_length=200, label=_("Institution"), validators=ONE_LINE)
    country = forms.CharField(max_length=100, label=_("Country"), validators=ONE_LINE)
    contact_email = forms.EmailField(required=False, label=_("Contact e-mail address"))
    commercial_product = forms.BooleanField(
        required=False, label=_("The system is part of a commercial product")
    )


class SiteRegistrationForm(TracksForm):
    """An organiser registers one of the bakeoff's sites for more tracks."""

    resources_statement = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label=_("Statement of resources"),
        help_text=_("Required for open tracks: the extra resources the site's system uses."),
        validators=FREE_TEXT,
    )
    approve = forms.BooleanField(required=False, initial=True, label=_("Approve at once"))


class UserNameForm(forms.Form):
    """A signed-in user's new user name. Sign-up asks for none (it names the account after the
    address, ``ACCOUNT_SIGNUP_FIELDS``), so that the sign-up page never tells whether a name is
    taken; here only an account holder learns it, about the name they chose."""

    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        validators=[User.username_validator],
        help_text=_("Letters, digits and @ . + - _ only; at most 150 characters."),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self) -> str:
        name = str(self.cleaned_data["username"]).strip()
        others = User.objects.exclude(pk=self.user.pk)
        if others.filter(username__iexact=name).exists():
            raise forms.ValidationError(_("This user name is taken: choose another."))
        return name


class ReaderSettingsForm(forms.Form):
    """A logged-in reader's language and zone, kept for every browser they log in on."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("As my browser asks")), *settings.LANGUAGES],
    )
    # A text field shown as a menu: a name from elsewhere is refused by the model's own validator,
    # with its message, rather than as "not one of the available choices".
    time_zone = forms.CharField(
        label=_("Time zone"),
        required=False,
        max_length=64,
        validators=[validate_time_zone],
        widget=ZoneSelect(blank=_("As my browser says")),
        help_text=_("Times are shown in the bakeoff's zone, in UTC and in this one."),
    )


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
