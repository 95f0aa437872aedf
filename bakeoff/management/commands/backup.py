from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff.services.backup import BackupError, do_backup


class Command(BaseCommand):
    help = (
        "Back up the database and every stored file it names into DESTINATION (a new directory), "
        "with a checksummed manifest (docs/operations.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("destination", type=Path, help="a new or empty directory")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = do_backup(options["destination"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Backed up {sum(report.rows.values())} rows of {len(report.rows)} tables and "
            f"{len(report.files)} files ({report.file_bytes} bytes) into {report.directory}."
        )
        if report.missing:
            for missing in report.missing:
                self.stderr.write(
                    f"missing: {missing.name} (named by {', '.join(missing.fields)}) is not in "
                    "the storage"
                )
            raise CommandError(
                f"{len(report.missing)} stored files named by the database are missing; the "
                "backup lists them in its manifest (missing_files) and is otherwise complete."
            )
