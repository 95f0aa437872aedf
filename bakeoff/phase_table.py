"""The run phases as a closed set: ``SubmissionPhase`` and, for each of its members, one row of
``FACTS`` that says everything a page, a mail or a model needs to know about the phase.

This module and ``bakeoff.services.phases.PHASES`` are the one owner of the phases
(docs/phases.md#the-phase-table). Here is the pure data, which ``bakeoff.models`` imports (models
import no service): whether the phase is official, how its runs are named, the words its refusals,
receipts and mails use, how its runs are limited, what they are scored against and which table
shows them. The rules (who may submit when, the withdrawal window, the daily limit's setting, the
text whose size bounds an upload) are the rows of ``PHASES`` in ``bakeoff.services.phases``, one
row per phase again, each carrying its row of ``FACTS``.

Both tables are built by an exhaustive ``match`` on the phase (``_facts_of`` here, ``_rules_of``
there), each ending in ``assert_never``: adding a member to ``SubmissionPhase`` is a mypy error in
both until the new phase has its rows. Code that differs by phase reads a row, or matches on one
of its facts (``Limit``, ``ScoredAgainst``, ``Table``) with ``assert_never`` again.
``tests/bakeoff/test_phase_table.py`` checks that both tables have one row per member.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar, assert_never

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django_stubs_ext import StrOrPromise


class SubmissionPhase(models.TextChoices):
    """When and for what a run was uploaded (docs/phases.md). Only test runs are official: the
    track's table, its ranks, exports and analyses read nothing else."""

    TEST = "test", _("Test (official)")
    DEVELOPMENT = "development", _("Development")
    POST_BAKEOFF = "post_bakeoff", _("Post-bakeoff (unofficial)")


class Limit(enum.Enum):
    """How a phase's runs are counted: a site's runs of a track (``Track.max_runs``, a free slot
    again once withdrawn), or a site's runs of a track on one calendar day."""

    PER_TRACK = "per_track"
    PER_DAY = "per_day"


class ScoredAgainst(enum.Enum):
    """What a phase's runs are scored against: the corpus's current gold (into ``Score`` rows,
    ranked by the leaderboard), or its development set (into a ``DevelopmentScore``)."""

    GOLD = "gold"
    DEVELOPMENT_SET = "development_set"


class Table(enum.Enum):
    """The table a phase's scored runs stand in."""

    OFFICIAL = "official"  # the track's table, its exports and analyses
    DEVELOPMENT = "development"  # the track's development table
    POST_BAKEOFF = "post_bakeoff"  # under the official table, never ranked among it


@dataclass(frozen=True)
class PhaseFacts:
    official: bool
    # A run as people name it: ``%(site)s`` and ``%(number)d`` ("S01 run 2 (development)").
    label: StrOrPromise
    # A site's run as its own mails name it, ``%(number)d`` ("development run 2").
    run_name: StrOrPromise
    # The runs of the phase in a sentence: "register it to upload %(what)s".
    runs: StrOrPromise
    # The receipt's run line, ``%(number)d`` and ``%(limit)d`` (an unofficial phase's plural on
    # ``limit``): the run's number and the limit it counts against.
    run_count: StrOrPromise
    # The text a run of the phase segments, as the size refusal names it.
    text: StrOrPromise
    limit: Limit
    scored_against: ScoredAgainst
    table: Table
    # The gold is public when the phase's runs arrive (after publication): a run is checked for
    # being a copy of it, and the share of its lines segmented exactly as the gold is stored.
    gold_public: bool
    # What the run's page and its mails say of where the run stands (the receipt's first words).
    standing: StrOrPromise
    # What the receipt says beside the submission deadline: "" where the deadline is the phase's
    # own (the official one), a note where it ends the phase otherwise, None where no deadline
    # bounds the phase's runs (the receipt names none).
    deadline: StrOrPromise | None
    # What a withdrawal does, on the run's page.
    withdrawal: StrOrPromise


def _facts_of(phase: SubmissionPhase) -> PhaseFacts:
    """The row of ``phase``: a ``match`` that mypy checks is exhaustive, so that a new member of
    ``SubmissionPhase`` is an error here until it has its row."""
    match phase:
        case SubmissionPhase.TEST:
            return PhaseFacts(
                official=True,
                label=_("%(site)s run %(number)d"),
                run_name=_("run %(number)d"),
                runs=_("runs"),
                run_count=_("%(number)d of %(limit)d"),
                text=_("this track's test text"),
                limit=Limit.PER_TRACK,
                scored_against=ScoredAgainst.GOLD,
                table=Table.OFFICIAL,
                gold_public=False,
                standing=_(
                    "An official run: ranked in the track's table once the results are published."
                ),
                deadline="",
                withdrawal=_(
                    "Until the deadline a site may withdraw a run: it stays in your history, is "
                    "never ranked, and frees its slot for another run."
                ),
            )
        case SubmissionPhase.DEVELOPMENT:
            return PhaseFacts(
                official=False,
                label=_("%(site)s run %(number)d (development)"),
                run_name=_("development run %(number)d"),
                runs=_("development runs"),
                run_count=ngettext_lazy(
                    "development run %(number)d; %(limit)d development run per day",
                    "development run %(number)d; %(limit)d development runs per day",
                    "limit",
                ),
                text=_("this track's development text"),
                limit=Limit.PER_DAY,
                scored_against=ScoredAgainst.DEVELOPMENT_SET,
                table=Table.DEVELOPMENT,
                gold_public=False,
                standing=_(
                    "A development run, not official and never ranked: scored against the "
                    "development set's gold and shown on the track's development table, never in "
                    "the official results."
                ),
                deadline=_("the development phase ends then"),
                withdrawal=_(
                    "During the development phase a site may withdraw a development run: it "
                    "stays in your history, leaves the development table, and still counts "
                    "toward the day's limit."
                ),
            )
        case SubmissionPhase.POST_BAKEOFF:
            return PhaseFacts(
                official=False,
                label=_("%(site)s run %(number)d (post-bakeoff)"),
                run_name=_("post-bakeoff run %(number)d"),
                runs=_("post-bakeoff runs"),
                run_count=ngettext_lazy(
                    "post-bakeoff run %(number)d; %(limit)d post-bakeoff run per day",
                    "post-bakeoff run %(number)d; %(limit)d post-bakeoff runs per day",
                    "limit",
                ),
                text=_("this track's test text"),
                limit=Limit.PER_DAY,
                scored_against=ScoredAgainst.GOLD,
                table=Table.POST_BAKEOFF,
                gold_public=True,
                standing=_(
                    "A post-bakeoff run, unofficial: scored with the current gold and shown in "
                    "the post-bakeoff table under the official one, never ranked among the "
                    "official runs."
                ),
                deadline=None,
                withdrawal=_(
                    "While the track is open for post-bakeoff runs a site may withdraw a "
                    "post-bakeoff run: it stays in your history, leaves the post-bakeoff table "
                    "(its page is gone), and still counts toward the day's limit."
                ),
            )
        case unreachable:
            assert_never(unreachable)


Row = TypeVar("Row")


class ByPhase(Mapping[SubmissionPhase, Row]):
    """A table keyed by the phase, one row per member, each row made by ``row_of`` (an exhaustive
    ``match``) on first use. Nothing is made at import: a phase added without its row is then a
    mypy error naming the ``match`` (mypy's Django plugin imports the apps, which must load), and
    a failure at the first use of its row (the tests read every row)."""

    def __init__(self, row_of: Callable[[SubmissionPhase], Row]) -> None:
        self._row_of = row_of
        self._rows: dict[SubmissionPhase, Row] = {}

    def __getitem__(self, phase: SubmissionPhase) -> Row:
        member = SubmissionPhase(phase)
        if member not in self._rows:
            self._rows[member] = self._row_of(member)
        return self._rows[member]

    def __iter__(self) -> Iterator[SubmissionPhase]:
        return iter(SubmissionPhase)

    def __len__(self) -> int:
        return len(SubmissionPhase)


FACTS: ByPhase[PhaseFacts] = ByPhase(_facts_of)


def shown_in(table: Table) -> list[SubmissionPhase]:
    """The phases whose runs ``table`` shows."""
    return [phase for phase, row in FACTS.items() if row.table is table]


def official_phases() -> list[SubmissionPhase]:
    """The phases whose runs are official: ranked, frozen in results versions, committee
    members, marked late after a moved deadline."""
    return [phase for phase, row in FACTS.items() if row.official]


def per_track_phases() -> list[SubmissionPhase]:
    """The phases whose runs count toward a track's run limit (``Limit.PER_TRACK``)."""
    return [phase for phase, row in FACTS.items() if row.limit is Limit.PER_TRACK]


def facts(phase: str) -> PhaseFacts:
    """The row of a phase stored as its value (``Submission.phase``); a value that names no
    phase is a programming error (the column's choices are the enum's)."""
    return FACTS[SubmissionPhase(phase)]
