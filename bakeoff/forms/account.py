"""A signed-in person's own account: their user name, language and time zone."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from ..models import validate_time_zone
from ..zone_menu import ZoneSelect


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


class LanguageSelect(forms.Select):
    """The menu of the interface's languages, each named in itself and marked in its language
    (as the header's menu): a screen reader reads 简体中文 in Chinese on an English page."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(*args, **kwargs)
        if option["value"]:
            option["attrs"]["lang"] = option["value"]
        return option


class ReaderSettingsForm(forms.Form):
    """A logged-in reader's language and zone, kept for every browser they log in on."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("As my browser asks")), *settings.LANGUAGES],
        widget=LanguageSelect,
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
