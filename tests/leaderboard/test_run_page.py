"""A page per run: figures with raw counts and signature, position, neighbours, comparison.

The bakeoff with the participant's registered site is built once for the module; the runs, by
each test that needs them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Corpus, Site, Submission, Track
from tests.factories import (
    PERFECT_RUN,
    SPLIT_RUN,
    WORKED_RUN,
    make_scored_runs,
    publish,
    rival,
    upload,
)
from tests.hints import Answer, ClientFor, OnCommit, streamed
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, registered_only

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


# Every test here starts from the registered site, no run yet, and what it adds (runs, rivals, a
# publication) is rolled back (tests/module_world.py). The world's own fixture is ``world``:
# ``mine`` is a test's run, and not every test has it (the neighbours of synthetic runs are ranked
# without it).
built, world = module_world("run_page", lambda: registered_only(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = (
    taken_from_world(name, "world") for name in SHARED
)


@pytest.fixture
def mine(participant: User, site: Site, closed: Track, on_commit: OnCommit) -> Submission:
    return upload(participant, closed, WORKED_RUN, on_commit)


def run_page(client: Client, submission: Submission) -> str:
    answer = client.get(f"{TRACK}runs/{submission.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def comparison(client: Client, submission: Submission) -> Answer:
    return client.get(f"{TRACK}runs/{submission.pk}/comparison.txt")


def test_it_shows_every_figure_with_its_raw_counts_and_signature(
    client_for: ClientFor, participant: User, mine: Submission
) -> None:
    html = run_page(client_for(participant), mine)
    score = mine.current_score()
    assert score is not None
    assert "c / N = 11 / 14" in html and "c / N' = 11 / 13" in html
    assert "0.786" in html and "0.2193" in html and "0.815" in html
    assert "correct OOV / OOV gold words = 2 / 2" in html
    assert score.signature in html
    assert score.result["signature"]["gold_checksum"] in html
    assert "rank 1" in html


def test_it_tells_the_significance_against_the_neighbours(
    client_for: ClientFor,
    organiser: User,
    participant: User,
    mine: Submission,
    bakeoff: Bakeoff,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    user, _ = rival(bakeoff, closed)
    upload(user, closed, PERFECT_RUN, on_commit)
    upload(user, closed, SPLIT_RUN, on_commit)
    html = run_page(client_for(organiser), mine)  # rank 2 of 3
    assert html.count("<strong>Not</strong> significantly different from") == 2
    assert "rank 1, above" in html and "rank 3, below" in html


def test_well_separated_neighbours_are_significantly_different(
    client_for: ClientFor, organiser: User, closed: Track, corpus: Corpus
) -> None:
    runs = make_scored_runs(closed, 3, seed=3)
    standing = closed.standings.get(rank=2)
    html = run_page(client_for(organiser), standing.submission)
    assert html.count("Significantly different from") == 2
    assert len(runs) == 3


def test_a_participant_sees_no_neighbour_before_publication(
    client_for: ClientFor,
    participant: User,
    mine: Submission,
    bakeoff: Bakeoff,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    user, _ = rival(bakeoff, closed)
    upload(user, closed, PERFECT_RUN, on_commit)
    html = run_page(client_for(participant), mine)
    assert "No neighbouring run you may see" in html and "Rivals" not in html


def test_the_comparison_marks_the_errors_line_by_line(
    client_for: ClientFor, organiser: User, mine: Submission
) -> None:
    answer = comparison(client_for(organiser), mine)
    text = streamed(answer).decode()
    assert "attachment" in answer["Content-Disposition"]
    assert "1\tgold\t结婚 的 [和] [尚未] [结婚] 的\n" in text
    assert "1\trun\t结婚 的 [和尚] [未结婚] 的\n" in text
    assert "2\t=\t我们 在 北京 工作\n" in text
    assert "11 of 14 gold words found" in text


def test_before_publication_the_participant_gets_no_comparison(
    client_for: ClientFor, participant: User, mine: Submission
) -> None:
    assert comparison(client_for(participant), mine).status_code == 404
    assert "released with the gold" in run_page(client_for(participant), mine)


def test_after_publication_the_participant_gets_the_comparison(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff, mine: Submission
) -> None:
    publish(bakeoff)
    assert comparison(client_for(participant), mine).status_code == 200


def test_after_publication_the_public_gets_no_comparison(
    anonymous: Client, client_for: ClientFor, bakeoff: Bakeoff, mine: Submission
) -> None:
    publish(bakeoff)
    run_page(anonymous, mine)
    assert comparison(anonymous, mine).status_code == 404  # the gold goes to registered sites


def test_another_site_gets_no_comparison_of_my_run_before_publication(
    client_for: ClientFor, bakeoff: Bakeoff, closed: Track, mine: Submission
) -> None:
    user, _ = rival(bakeoff, closed)
    assert comparison(client_for(user), mine).status_code == 404


def test_a_run_of_another_track_is_not_found(
    client_for: ClientFor, organiser: User, mine: Submission
) -> None:
    answer = client_for(organiser).get(f"/bakeoffs/b2026/tracks/pk-open/runs/{mine.pk}/")
    assert answer.status_code == 404


def test_after_publication_another_site_gets_no_comparison_of_my_run(
    client_for: ClientFor, bakeoff: Bakeoff, closed: Track, mine: Submission, on_commit: OnCommit
) -> None:
    user, _ = rival(bakeoff, closed)
    theirs = upload(user, closed, PERFECT_RUN, on_commit)
    publish(bakeoff)
    assert comparison(client_for(user), mine).status_code == 404  # my whole run: mine only
    assert comparison(client_for(user), theirs).status_code == 200
    base = closed.submissions.get(kind="baseline")
    assert comparison(client_for(user), base).status_code == 200
