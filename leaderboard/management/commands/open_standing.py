"""Publish a bakeoff whose timetable is over and open every track for post-bakeoff runs:
``manage.py open_standing SLUG`` (``import_icwb2 PATH --standing`` runs it, docs/phases.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bakeoff.errors import Refused
from bakeoff.models import Bakeoff
from leaderboard.services import do_open_standing


class Command(BaseCommand):
    help = (
        "Score the runs still waiting, publish the results now (with names), and open every "
        "track of the bakeoff for post-bakeoff runs: a standing leaderboard."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("bakeoff", help="The bakeoff's slug.")

    def handle(self, *args: Any, **options: Any) -> None:
        bakeoff = Bakeoff.objects.filter(slug=options["bakeoff"]).first()
        if bakeoff is None:
            raise CommandError(f"No bakeoff {options['bakeoff']!r}.")
        try:
            do_open_standing(bakeoff)
        except Refused as refusal:
            raise CommandError(str(refusal.message)) from None
        tracks = bakeoff.corpora.values_list("tracks__slug", flat=True).order_by("tracks__slug")
        self.stdout.write(
            self.style.SUCCESS(
                f"Published {bakeoff.slug}; open for post-bakeoff runs: {', '.join(tracks)}."
            )
        )
