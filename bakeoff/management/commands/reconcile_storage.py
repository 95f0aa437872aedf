from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff.services.reconcile import DEFAULT_MIN_AGE, do_reconcile
from scoring.core.errors import counted


class Command(BaseCommand):
    help = (
        "Compare the stored files with the rows that name them: report files that no row names "
        "(orphans) and rows whose file is missing; with --remove-orphans, remove the orphans older "
        "than --min-age seconds (an hour by default). Exits with status 1 if a file is missing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--remove-orphans", action="store_true")
        parser.add_argument(
            "--min-age",
            type=int,
            default=int(DEFAULT_MIN_AGE.total_seconds()),
            help="seconds: a younger orphan may belong to a row not yet committed, and is kept",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        report = do_reconcile(
            remove_orphans=options["remove_orphans"],
            min_age=timedelta(seconds=options["min_age"]),
        )
        say = self.stdout.write
        say(f"{counted(report.stored, 'stored file')}; rows name {counted(report.named, 'file')}.")
        for orphan in report.orphans:
            state = (
                "removed"
                if orphan.name in report.removed
                else "kept (younger than --min-age)"
                if orphan.name in report.kept_young
                else "orphan"
            )
            when = f"{orphan.modified:%Y-%m-%d %H:%M}"
            say(f"orphan: {orphan.name} ({counted(orphan.size, 'byte')}, {when}): {state}")
        for missing in report.missing:
            say(f"MISSING: {missing.name}, named by {missing.column} {missing.pk}")
        say(
            f"{counted(len(report.orphans), 'orphan')} ({len(report.removed)} removed), "
            f"{counted(len(report.missing), 'row')} without its file."
        )
        if report.missing:
            raise CommandError(
                f"{counted(len(report.missing), 'row')} without the file it names: restore it "
                "from a backup (docs/operations.md).",
                returncode=1,
            )
