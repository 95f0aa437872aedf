"""The blind phase is sealed: before publication nobody learns a number derived from a run they
may not see, on any page, export, plot, API answer or mail of the bakeoff.

Two tables walk every URL of the bakeoff (tests/leaderboard/test_blind_phase.py checks that no URL
of the platform is left out of them; the walk: tests/leaderboard/blind_phase_walk.py):

- as a participant of one site (approved on PK closed only, two runs there) while other sites'
  runs are present, some of them planted with distinctive figures: no hidden figure, site, rank
  above the visible count, total count, ranking time or statistic over hidden runs;
- as an account with no site, a member of a site whose registration is pending, one whose
  registration was refused, one approved on another corpus only, and anonymous: no figure of any
  run of PK closed (BASE and TOP included).

Each (page, field) pair checked is counted and printed.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.factories import publish
from tests.leaderboard import blind_phase_world
from tests.leaderboard.blind_phase_walk import (
    Audit,
    Page,
    figure_pattern,
    forbidden_for_participant,
    forbidden_for_personas,
    mails_to,
    walk,
)
from tests.leaderboard.blind_phase_world import B, World

pytestmark = pytest.mark.django_db

# the blind phase's bakeoff, built once for the module: every test reads it, and what one test
# writes (a publication) is rolled back before the next
world, world_once, quick_analysis = (
    blind_phase_world.world_built_once,
    blind_phase_world.world_once,
    blind_phase_world.quick_analysis,
)

organiser = blind_phase_world.organiser_built_once


def test_a_participant_learns_nothing_of_hidden_runs_before_publication(
    world: World, client_for: Any
) -> None:
    forbidden = forbidden_for_participant(world)
    audit = Audit()
    walk(client_for(world.participant), "participant", world, forbidden, audit)
    audit.check("participant", Page("mail", "text"), mails_to(world.participant), forbidden)
    assert audit.leaks == [], "\n".join(audit.leaks)
    print(
        f"blind phase, participant: {audit.pages} answers, {audit.checked} (answer, field) checks"
    )
    assert len(forbidden.tokens) > 50 and audit.pages > 100


def test_a_participant_still_sees_their_rows_ranked_among_the_rows_shown(
    world: World, client_for: Any
) -> None:
    """Not vacuous: the participant's own figures, BASE and TOP are on the page, their runs
    ranked 1 and 2 among the runs shown, each the other's neighbour."""
    client = client_for(world.participant)
    worked, split = world.mine
    text = client.get(f"{B}tracks/pk-closed/").content.decode()
    assert "0.815" in text and "0.786" in text and "BASE" in text and "TOP" in text
    assert "among the runs you may see" in text
    assert [r["rank"] for r in client.get(f"{B}tracks/pk-closed/results.json").json()["rows"]] == [
        1,
        2,
        None,
        None,
    ]
    run = client.get(f"{B}tracks/pk-closed/runs/{worked.pk}/").content.decode()
    assert "rank 1 among the runs you may see" in run
    assert f"/runs/{split.pk}/" in run  # its neighbour below, among the rows shown
    publish(world.bakeoff)  # then every row, ranked among all runs
    run = client.get(f"{B}tracks/pk-closed/runs/{worked.pk}/").content.decode()
    assert "rank 4 of 6 ranked runs" in run


def test_the_organiser_sees_what_the_participant_may_not(
    world: World, client_for: Any, organiser: User
) -> None:
    """The probes find what is there: every hidden F is on the organiser's page."""
    text = client_for(organiser).get(f"{B}tracks/pk-closed/").content.decode()
    for run in world.hidden[3:]:
        score = run.current_score()
        assert score is not None and figure_pattern(f"{score.f:.3f}").search(text)
    assert (
        "rank 6"
        in client_for(organiser)
        .get(f"{B}tracks/pk-closed/runs/{world.mine[1].pk}/")
        .content.decode()
    )


@pytest.mark.parametrize(
    "persona",
    ["no site", "pending site", "refused site", "site of another corpus", "anonymous"],
)
def test_no_score_of_a_track_reaches_anyone_but_its_approved_sites_before_publication(
    world: World, client_for: Any, persona: str
) -> None:
    forbidden = forbidden_for_personas(world, persona)
    audit = Audit()
    user = world.personas[persona]
    walk(client_for(user), persona, world, forbidden, audit)
    if user is not None:
        audit.check(persona, Page("mail", "text"), mails_to(user), forbidden)
    assert audit.leaks == [], "\n".join(audit.leaks)
    print(f"blind phase, {persona}: {audit.pages} answers, {audit.checked} (answer, field) checks")
    assert len(forbidden.tokens) > 30 and audit.pages > 100
