"""What the notifications app stores: every mail sent or to be sent, and who wants which."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from bakeoff.models import Bakeoff, account_or_none

from .kinds import KINDS


class MailStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class Mail(models.Model):
    """One message to one address: recorded when it is queued, updated by the task that sends it.

    ``key`` makes a mail idempotent (one receipt per run and recipient, one reminder per deadline
    and recipient): a second mail with the same key is not recorded. The body of a mail whose
    kind is secret (a link that logs in or resets a password) is dropped once it is sent.
    """

    kind = models.CharField(max_length=40, choices=[(k, v.label) for k, v in KINDS.items()])
    key = models.CharField(max_length=200, unique=True, null=True, blank=True)
    bakeoff = models.ForeignKey(
        Bakeoff, null=True, blank=True, on_delete=models.SET_NULL, related_name="mails"
    )
    recipient = account_or_none(related_name="mails")
    to = models.EmailField(max_length=254)
    subject = models.CharField(max_length=300)
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=MailStatus.choices, default=MailStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True, help_text=_("Why the last attempt failed."))
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = (models.Index(fields=["bakeoff", "-created_at"]),)

    def __str__(self) -> str:
        return f"{self.kind} to {self.to} ({self.status})"


class MailPreference(models.Model):
    """The optional mails a user wants; without a row, all of them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_preference"
    )
    reminders = models.BooleanField(default=True, help_text=_("Deadline reminders"))
    scored = models.BooleanField(default=True, help_text=_("A run was scored"))
    announcements = models.BooleanField(
        default=True, help_text=_("Announcements of the organisers")
    )

    def __str__(self) -> str:
        return f"mail preferences of {self.user}"
