"""Rank every track again: ``manage.py rank_tracks [--bakeoff SLUG]``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.template.defaultfilters import pluralize

from bakeoff.models import Bakeoff
from leaderboard.services import rank_all


class Command(BaseCommand):
    help = "Compute and store the standings of every track again (they follow each new score)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bakeoff", help="Only the tracks of this bakeoff (its slug).")

    def handle(self, *args: Any, **options: Any) -> None:
        bakeoff = Bakeoff.objects.get(slug=options["bakeoff"]) if options["bakeoff"] else None
        count = rank_all(bakeoff)
        self.stdout.write(f"Ranked {count} track{pluralize(count)}.")
