"""``manage.py clone_bakeoff SLUG NEW_SLUG --shift-days N [--with-corpora]``: the next edition
(docs/bundles.md#the-next-edition)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff import bundles
from bakeoff.errors import Refused
from bakeoff.management.users import accounts
from bakeoff.models import Bakeoff


class Command(BaseCommand):
    help = (
        "Make a new draft bakeoff from another's definition: its settings and phases' limits, "
        "and with --with-corpora its corpora, tracks, run limits, data agreements and "
        "development sets; every date of the timetable moved by --shift-days."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("new_slug")
        parser.add_argument("--shift-days", type=int, required=True, metavar="N")
        parser.add_argument("--with-corpora", action="store_true")
        parser.add_argument("--name", help="the new bakeoff's name (by default the same)")
        parser.add_argument(
            "--organiser",
            action="append",
            default=[],
            metavar="USER",
            help="the new bakeoff's organisers (by default the cloned bakeoff's)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bakeoff = Bakeoff.objects.filter(slug=options["slug"]).first()
        if bakeoff is None:
            raise CommandError(f"No bakeoff {options['slug']!r}.")
        organisers = accounts(options["organiser"]) or None
        try:
            clone = bundles.clone_bakeoff(
                bakeoff,
                slug=options["new_slug"],
                name=options["name"],
                shift_days=options["shift_days"],
                with_corpora=options["with_corpora"],
                by=None,
                organisers=organisers,
            )
        except Refused as refusal:
            raise CommandError(refusal.detail) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {clone.slug} as a draft, its timetable moved by "
                f"{options['shift_days']} days: {clone.corpora.count()} corpora."
            )
        )
