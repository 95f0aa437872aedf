"""What the notifications app shows on bakeoff's pages (registered in ``ready``)."""

from __future__ import annotations

from django.template import Context
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from bakeoff import sections

from .forms import PreferenceForm
from .models import MailPreference


def organiser_link(context: Context) -> str:
    """The organiser's bar on the bakeoff page: the mail sent for this bakeoff."""
    bakeoff = context.get("bakeoff")
    if bakeoff is None or not context.get("is_organiser"):
        return ""
    url = reverse("notifications:mail", args=[bakeoff.slug])
    return format_html('<li><a href="{}">{}</a></li>', url, _("Mail sent"))


def account_preferences(context: Context) -> str:
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    instance = MailPreference.objects.filter(user=user).first() or MailPreference(user=user)
    return sections.render(
        context, "notifications/_preferences.html", {"form": PreferenceForm(instance=instance)}
    )
