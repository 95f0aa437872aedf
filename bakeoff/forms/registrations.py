"""Sites and people: registration for tracks and its decision, invitations and the invited
person's account, the organisers, a site's details.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from ..errors import interpolate
from ..models import Bakeoff, Site, Track
from ..services.registration import REASON_NEEDED
from .fields import FREE_TEXT, ONE_LINE


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


class OrganiserForm(forms.Form):
    account = forms.CharField(
        max_length=254,
        label=_("User name or e-mail address"),
        help_text=_("Of an existing account; it becomes an organiser of this bakeoff."),
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
