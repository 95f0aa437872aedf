"""``manage.py import_bakeoff ARCHIVE``: recreate a bakeoff from its organisers' archive
(docs/archives.md), or refuse the archive naming the file or key at fault, creating nothing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff.errors import Refused
from leaderboard import archive


class Command(BaseCommand):
    help = (
        "Recreate a bakeoff from its organisers' archive (a zip or a folder) in a database that "
        "does not hold it: every row, account and stored file, checked first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("archive", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        try:
            report = archive.import_archive(archive.open_archive(options["archive"]))
        except Refused as refusal:
            raise CommandError(refusal.detail) from None
        rows = sum(report.rows.values())
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {report.bakeoff.slug}: {rows} rows, {report.files} files, "
                f"{report.accounts_created} accounts created and {report.accounts_reused} "
                f"found here, in {time.perf_counter() - started:.2f} s."
            )
        )
