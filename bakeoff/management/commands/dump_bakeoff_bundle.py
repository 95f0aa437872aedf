"""``manage.py dump_bakeoff_bundle SLUG OUT``: a bakeoff's definition as a bundle, the inverse of
``load_bakeoff`` (docs/bundles.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff import bundles
from bakeoff.models import Bakeoff


class Command(BaseCommand):
    help = (
        "Write a bakeoff's definition (settings, timetable, phases, corpora with their current "
        "gold, tracks and limits) as a bundle: a zip when OUT ends in .zip, else a new folder."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("out", type=Path)
        parser.add_argument(
            "--without-corpora", action="store_true", help="the settings and timetable only"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bakeoff = Bakeoff.objects.filter(slug=options["slug"]).first()
        if bakeoff is None:
            raise CommandError(f"No bakeoff {options['slug']!r}.")
        manifest, files = bundles.bundle_of(bakeoff, with_corpora=not options["without_corpora"])
        try:
            bundles.write_bundle(manifest, files, options["out"])
        except (FileExistsError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Wrote {options['out']}: {len(manifest['corpora'])} corpora, "
                f"{len(files) + 1} files."
            )
        )
