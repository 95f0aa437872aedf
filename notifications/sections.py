"""What the notifications app shows on bakeoff's pages (registered in ``ready``)."""

from __future__ import annotations

from django.conf import settings
from django.template import Context
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from bakeoff import sections
from bakeoff.models import ReaderSettings

from .forms import PreferenceForm
from .kinds import KINDS
from .mail import language_for_mail
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
    known = ReaderSettings.objects.filter(user=user).first()
    chosen, at_login = (known.language, known.pages_language) if known else ("", "")
    language = language_for_mail(chosen, at_login)
    return sections.render(
        context,
        "notifications/_preferences.html",
        {
            "form": PreferenceForm(instance=instance),
            "always_sent": [kind.label for kind in KINDS.values() if not kind.preference],
            # Its own name (简体中文) marked in its language, as in the language menu; and why
            # it is that one.
            "mail_language": format_html(
                '<span lang="{}">{}</span>',
                language,
                dict(settings.LANGUAGES).get(language, language),
            ),
            "language_chosen": bool(chosen),
            "language_at_login": bool(at_login),
        },
    )
