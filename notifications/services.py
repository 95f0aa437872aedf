"""Sending a recorded mail; its status changes only here, by conditional UPDATEs:
queued → sending → sent, or back to queued (a retry follows) or → failed with the error."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F

from bakeoff import clock

from .kinds import KINDS
from .models import Mail, MailStatus


def do_send_mail(mail_id: int, *, now: datetime | None = None) -> bool:
    """Send the mail once: answers whether it was sent now. An SMTP error leaves it queued and
    is raised again, for the task to retry."""
    claimed = Mail.objects.filter(pk=mail_id, status=MailStatus.QUEUED).update(
        status=MailStatus.SENDING, attempts=F("attempts") + 1
    )
    if not claimed:
        return False
    mail = Mail.objects.get(pk=mail_id)
    message = EmailMultiAlternatives(
        mail.subject,
        mail.text,
        settings.DEFAULT_FROM_EMAIL,
        [mail.to],
        headers=dict(mail.headers),
    )
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    try:
        message.send()
    except OSError as error:
        Mail.objects.filter(pk=mail_id, status=MailStatus.SENDING).update(
            status=MailStatus.QUEUED, error=f"{type(error).__name__}: {error}"
        )
        raise
    sent = {"status": MailStatus.SENT, "sent_at": now or clock.now(), "error": ""}
    if KINDS[mail.kind].secret:
        sent.update(text="", html="")
    Mail.objects.filter(pk=mail_id).update(**sent)
    return True


def do_mark_mail_failed(mail_id: int, error: str) -> bool:
    return bool(
        Mail.objects.filter(pk=mail_id, status__in=(MailStatus.QUEUED, MailStatus.SENDING)).update(
            status=MailStatus.FAILED, error=error
        )
    )
