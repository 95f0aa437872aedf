"""``manage.py load_bakeoff BUNDLE``: a draft bakeoff from a bundle (docs/bundles.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff import bundles
from bakeoff.errors import Refused
from bakeoff.management.users import accounts


class Command(BaseCommand):
    help = (
        "Create a draft bakeoff from a bundle (a folder or a zip holding bundle.json and the "
        "files it names, docs/bundles.md). A malformed bundle is refused with the path and key "
        "at fault, and nothing is created."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("bundle", type=Path)
        parser.add_argument("--slug", help="the new bakeoff's short name, instead of the bundle's")
        parser.add_argument("--name", help="the new bakeoff's name, instead of the bundle's")
        parser.add_argument(
            "--organiser",
            action="append",
            default=[],
            metavar="USER",
            help="make USER an organiser of the bakeoff (may be repeated)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        organisers = accounts(options["organiser"])
        path: Path = options["bundle"]
        if not path.exists():
            raise CommandError(f"{path}: no such folder or file.")
        try:
            bakeoff = bundles.load_bundle(
                bundles.open_bundle(path),
                by=None,
                organisers=organisers,
                slug=options["slug"],
                name=options["name"],
            )
        except Refused as refusal:
            raise CommandError(refusal.detail) from None
        tracks = sum(corpus.tracks.count() for corpus in bakeoff.corpora.all())
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {bakeoff.slug} as a draft: {bakeoff.corpora.count()} corpora, "
                f"{tracks} tracks. Open it on its page when it is ready."
            )
        )
