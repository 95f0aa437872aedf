from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.defaultfilters import pluralize

from bakeoff import icwb2
from bakeoff.errors import Refused
from bakeoff.models import Bakeoff, Corpus


class Command(BaseCommand):
    help = (
        "Create the bakeoff sighan2005 from a folder laid out like the SIGHAN 2005 icwb2-data "
        "release (gold/, testing/, and training/ where present): four corpora, open and closed "
        "tracks, BASE and TOP runs. Prints where each gold differs from its test text."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--review",
            action="store_true",
            help="leave gold/test differences for the organiser to accept on the corpus page "
            "(by default they are accepted, as the SIGHAN scorer did)",
        )
        parser.add_argument(
            "--organiser",
            action="append",
            default=[],
            metavar="USER",
            help="make USER an organiser of the bakeoff (may be repeated)",
        )
        parser.add_argument(
            "--replace", action="store_true", help="delete an existing sighan2005 bakeoff first"
        )
        parser.add_argument(
            "--standing",
            action="store_true",
            help="import SIGHAN 2005 as published: the timetable over, BASE and TOP only, the "
            "results and gold released, every track open for post-bakeoff runs (the standing "
            "leaderboard, /docs/phases.md); runs the leaderboard's open_standing command",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        organisers = []
        for name in options["organiser"]:
            try:
                organisers.append(User.objects.get(**{User.USERNAME_FIELD: name}))
            except User.DoesNotExist:
                raise CommandError(f"No user named {name!r}.") from None
        existing = Bakeoff.objects.filter(slug=icwb2.SLUG)
        if existing.exists():
            if not options["replace"]:
                raise CommandError(f"The bakeoff {icwb2.SLUG} exists; use --replace to rebuild it.")
            existing.delete()
        try:
            bakeoff = icwb2.import_icwb2(
                options["path"],
                accept_differences=not options["review"],
                report=self.report,
                standing=options["standing"],
            )
        except (FileNotFoundError, Refused) as error:
            raise CommandError(str(error)) from None
        bakeoff.organisers.add(*organisers)
        self.stdout.write(
            self.style.SUCCESS(f"Created {bakeoff.slug} with {bakeoff.corpora.count()} corpora.")
        )
        if options["standing"]:
            # By name: publishing is the leaderboard's, a layer this app does not import.
            call_command("open_standing", bakeoff.slug, stdout=self.stdout)
        # Any bakeoff of this database published before results versions existed gets its
        # version 1 (docs/deployment.md#results-published-before-versions).
        call_command("freeze_published_results", stdout=self.stdout)

    def report(self, corpus: Corpus) -> None:
        gold = corpus.current_gold()
        assert gold is not None
        tracks = ", ".join(corpus.tracks.values_list("slug", flat=True))
        self.stdout.write(f"{corpus.abbreviation}: tracks {tracks}; gold {gold.checksum}")
        if not gold.differences:
            self.stdout.write("  the gold matches the test text on every line")
            return
        state = "accepted" if gold.accepted_at else "waiting for the organiser"
        lines = len(gold.differences)
        self.stdout.write(
            f"  the gold differs from the test text on {lines} line{pluralize(lines)}, {state}:"
        )
        for d in gold.differences:
            self.stdout.write(
                f"  line {d['line']}, column {d['column']}: gold {d['gold'] or '(end)'!s}, "
                f"test {d['test'] or '(end)'!s}"
            )
