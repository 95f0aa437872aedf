from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bakeoff import services


class Command(BaseCommand):
    help = (
        "Announce the milestones that are due (data released, deadline in 48 h and 2 h, results "
        "public), as Celery beat does every five minutes; for cron in the embedded mode."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for slug, name in services.do_announce_milestones():
            self.stdout.write(f"{slug}: {name}")
