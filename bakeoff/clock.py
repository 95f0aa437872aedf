"""The server's clock. Services take ``now`` as a parameter; this is its default."""

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
