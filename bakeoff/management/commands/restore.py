from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff.services.backup import BackupError
from bakeoff.services.restore import do_restore


class Command(BaseCommand):
    help = (
        "Restore the backup in SOURCE into an empty database and an empty storage, once every "
        "checksum of its manifest is verified (docs/operations.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", type=Path, help="a directory written by `manage.py backup`")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = do_restore(options["source"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        for label, count in sorted(report.rows.items()):
            self.stdout.write(f"  {label}: {count} rows")
        self.stdout.write(
            f"Restored {sum(report.rows.values())} rows of {len(report.rows)} tables and "
            f"{report.files} files ({report.file_bytes} bytes)."
        )
        for missing in report.missing:
            self.stderr.write(
                f"missing: {missing.name} (named by {', '.join(missing.fields)}) was missing "
                "when the backup was taken: its rows are restored without it"
            )
