"""The one task of the app: send a recorded mail. Retried on SMTP and network errors."""

from __future__ import annotations

from celery import shared_task

from bakeoff.task_base import TRANSIENT, PlatformTask

from . import services


def _fail_mail(mail_id: int, error: Exception) -> None:
    # Out of retries (or a bug): the record says the mail failed and why.
    services.do_mark_mail_failed(mail_id, f"{type(error).__name__}: {error}")


@shared_task(
    base=PlatformTask,
    fail=_fail_mail,
    autoretry_for=(*TRANSIENT, OSError),  # smtplib.SMTPException is an OSError
    max_retries=5,
    retry_backoff=30,
    retry_backoff_max=1800,
)
def send_mail(mail_id: int) -> None:
    services.do_send_mail(mail_id)
