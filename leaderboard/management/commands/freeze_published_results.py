"""Freeze results version 1 of every bakeoff published before results versions existed:
``manage.py freeze_published_results [--dry-run]`` (leaderboard.backfill, docs/deployment.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.template.defaultfilters import pluralize

from bakeoff import clock
from leaderboard import backfill


class Command(BaseCommand):
    help = (
        "Freeze results version 1, from the figures current now, for every published bakeoff "
        "that has none (published before results versions existed); recorded in its audit "
        "trail. Bakeoffs with a version are never touched: running it again changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="list what would be frozen, freeze nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        now = clock.now()
        found = list(backfill.unversioned())
        if not found:
            self.stdout.write("Every published bakeoff has a results version.")
        for bakeoff in found:
            waiting = backfill.waiting_runs(bakeoff)
            if waiting:
                # Frozen now, their tracks would miss runs a worker is about to score.
                self.stdout.write(
                    self.style.WARNING(
                        f"{bakeoff.slug}: not frozen, {waiting} run{pluralize(waiting)} still "
                        "being scored; run this again when the scoring is done."
                    )
                )
            elif options["dry_run"]:
                self.stdout.write(f"{bakeoff.slug}: would freeze results version 1.")
            elif backfill.do_freeze_unversioned(bakeoff, now=now) is not None:
                self.stdout.write(self.style.SUCCESS(f"{bakeoff.slug}: results version 1 frozen."))
