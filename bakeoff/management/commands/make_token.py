from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Print a new API token for USER (the old one, if any, stops working)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("user", help="the username")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        try:
            user = User.objects.get(**{User.USERNAME_FIELD: options["user"]})
        except User.DoesNotExist:
            raise CommandError(f"No user named {options['user']!r}.") from None
        Token.objects.filter(user=user).delete()
        self.stdout.write(Token.objects.create(user=user).key)
