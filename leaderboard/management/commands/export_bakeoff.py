"""``manage.py export_bakeoff SLUG OUT [--public]``: a bakeoff's archive (docs/archives.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff import clock
from bakeoff.errors import Refused
from bakeoff.models import Bakeoff
from leaderboard import archive


class Command(BaseCommand):
    help = (
        "Write a bakeoff's archive: a zip when OUT ends in .zip, else a new folder. The "
        "organisers' archive holds everything (e-mail addresses included); --public, only after "
        "publication, the definition, every gold version and the published tables."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("out", type=Path)
        parser.add_argument(
            "--public", action="store_true", help="the public release: no personal data"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bakeoff = Bakeoff.objects.filter(slug=options["slug"]).first()
        if bakeoff is None:
            raise CommandError(f"No bakeoff {options['slug']!r}.")
        started = time.perf_counter()
        try:
            files = archive.archive_files(bakeoff, public=options["public"], now=clock.now())
            archive.write_archive(files, options["out"])
        except Refused as refusal:
            raise CommandError(refusal.detail) from None
        except (FileExistsError, OSError) as error:
            raise CommandError(str(error)) from None
        variant = "public" if options["public"] else "organisers'"
        self.stdout.write(
            self.style.SUCCESS(
                f"Wrote the {variant} archive of {bakeoff.slug} to {options['out']}: "
                f"{len(files)} files, {sum(len(d) for d in files.values()):,} bytes before "
                f"compression, in {time.perf_counter() - started:.2f} s."
            )
        )
