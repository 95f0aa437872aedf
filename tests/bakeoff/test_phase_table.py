"""The phase table (docs/phases.md#the-phase-table): one row per phase, in the facts and in the
rules, and the code that differs by phase reads it."""

from __future__ import annotations

import pytest
from django.utils import translation

from bakeoff.models import Submission, SubmissionKind, run_label
from bakeoff.phase_table import FACTS, Limit, ScoredAgainst, SubmissionPhase, Table
from bakeoff.services.phases import PHASES


def test_the_facts_have_one_row_per_phase() -> None:
    # reading a row runs its ``match``: a phase without a row fails there (assert_never)
    rows = {phase: FACTS[phase] for phase in SubmissionPhase}
    assert set(FACTS) == set(rows) == set(SubmissionPhase)
    assert len({str(row.label) for row in rows.values()}) == len(SubmissionPhase)


def test_the_rules_have_one_row_per_phase_each_with_its_facts() -> None:
    rules = {phase: PHASES[phase] for phase in SubmissionPhase}
    assert set(PHASES) == set(rules) == set(SubmissionPhase)
    assert all(rules[phase].facts is FACTS[phase] for phase in SubmissionPhase)


def test_a_value_that_names_no_phase_has_no_row() -> None:
    with pytest.raises(ValueError):
        FACTS["qualifying"]  # type: ignore[index]


def test_only_the_test_phase_is_official_and_ranked_in_the_official_table() -> None:
    official = {phase for phase, row in FACTS.items() if row.official}
    assert official == {SubmissionPhase.TEST}
    assert {phase for phase, row in FACTS.items() if row.table is Table.OFFICIAL} == official
    assert FACTS[SubmissionPhase.TEST].limit is Limit.PER_TRACK


def test_development_runs_are_scored_against_the_development_set_only() -> None:
    scored = {phase: row.scored_against for phase, row in FACTS.items()}
    assert scored == {
        SubmissionPhase.TEST: ScoredAgainst.GOLD,
        SubmissionPhase.DEVELOPMENT: ScoredAgainst.DEVELOPMENT_SET,
        SubmissionPhase.POST_BAKEOFF: ScoredAgainst.GOLD,
    }


@pytest.mark.parametrize(
    ("phase", "english", "chinese"),
    [
        (SubmissionPhase.TEST, "S01 run 2", "S01 结果 2"),
        (SubmissionPhase.DEVELOPMENT, "S01 run 2 (development)", "S01 结果 2（开发）"),
        (SubmissionPhase.POST_BAKEOFF, "S01 run 2 (post-bakeoff)", "S01 结果 2（赛后）"),
    ],
)
def test_a_run_is_labelled_by_its_phase_in_the_readers_language(
    phase: SubmissionPhase, english: str, chinese: str
) -> None:
    assert run_label("S01", 2, phase) == english
    with translation.override("zh-hans"):
        assert run_label("S01", 2, phase) == chinese


@pytest.mark.parametrize(
    ("phase", "limit", "count"),
    [
        (SubmissionPhase.TEST, 3, "1 of 3"),
        (SubmissionPhase.DEVELOPMENT, 5, "development run 1; 5 development runs per day"),
        (SubmissionPhase.POST_BAKEOFF, 1, "post-bakeoff run 1; 1 post-bakeoff run per day"),
    ],
)
def test_a_runs_count_names_its_phase_and_the_limit_it_counts_against(
    phase: SubmissionPhase, limit: int, count: str
) -> None:
    run = Submission(kind=SubmissionKind.RUN, phase=phase, run_number=1, max_runs=limit)
    assert str(run.run_count) == count
    assert run.official is (phase == SubmissionPhase.TEST)


def test_queries_name_the_phases_by_their_facts_not_by_the_test_phase() -> None:
    """Which runs are official, or count toward a track's limit, is the phase table's to say
    (``official_phases``, ``per_track_phases``): a query that names the test phase itself would
    leave out a new official phase without a word from mypy."""
    import re
    from pathlib import Path

    from bakeoff.phase_table import official_phases, per_track_phases

    assert official_phases() == [p for p, row in FACTS.items() if row.official]
    assert per_track_phases() == [p for p, row in FACTS.items() if row.limit is Limit.PER_TRACK]
    named = re.compile(r"""phase(__in)?=(SubmissionPhase\.TEST\b|["']test["'])""")
    root = Path(__file__).resolve().parents[2]
    # the database's constraints are written in the migrations, as literals
    allowed = {Path("bakeoff/models.py")}
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for package in ("bakeoff", "leaderboard", "analysis", "psychometric", "notifications")
        for path in sorted((root / package).rglob("*.py"))
        if "migrations" not in path.parts and path.relative_to(root) not in allowed
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if named.search(line)
    ]
    assert not found, "\n".join(found)
