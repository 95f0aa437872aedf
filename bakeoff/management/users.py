"""What the management commands share."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from bakeoff.access import Account


def accounts(names: Iterable[str]) -> list[Account]:
    """The accounts named on the command line, or CommandError naming the unknown one."""
    User = get_user_model()
    found = []
    for name in names:
        try:
            found.append(User.objects.get(**{User.USERNAME_FIELD: name}))
        except User.DoesNotExist:
            raise CommandError(f"No user named {name!r}.") from None
    return found
