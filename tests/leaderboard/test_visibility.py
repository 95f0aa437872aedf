"""Who sees which rows: a test for every forbidden path (docs/track-table.md: a participant sees
only their own rows before publication; the public sees the track list; the organiser sees
everything).

The world of two sites' runs before publication is built once for the module."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from bakeoff.models import Bakeoff, Submission, Track
from tests.factories import (
    PERFECT_RUN,
    SPLIT_RUN,
    WORKED_RUN,
    publish,
    rival,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, Registered, registered

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
EXPORTS = ("results.csv", "results.json", "results.tex", "f.svg")


@dataclass
class Built(Registered):
    """The world as built once for the module, and what the shared fixtures would have given."""

    runs: tuple[Submission, Submission]


def build_world(on_commit: OnCommit) -> Built:
    """The participant's run and a rival site's, scored, the results not published."""
    world = registered(on_commit)
    own_run = upload(world.participant, world.closed, WORKED_RUN, on_commit)
    user, _ = rival(world.bakeoff, world.closed)
    rival_run = upload(user, world.closed, PERFECT_RUN, on_commit)
    # No page read before a test may be served to it from the cache as if it were fresh.
    cache.clear()
    return Built(**vars(world), runs=(own_run, rival_run))


# Every test here reads the world, and what it changes (a run, a publication, hidden scores) is
# rolled back (tests/module_world.py).
built, mine = module_world("visibility", lambda: build_world(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser, runs = map(
    taken_from_world, (*SHARED, "runs")
)


def page(client: Client, path: str = TRACK) -> str:
    answer = client.get(path)
    assert answer.status_code == 200
    return answer.content.decode()


def test_before_publication_the_public_sees_only_the_track_list(
    anonymous: Client, runs: tuple[Submission, Submission]
) -> None:
    text = page(anonymous)
    assert "not published yet" in text
    assert "BASE" not in text and "S01" not in text and "<svg" not in text
    summary = page(anonymous, "/bakeoffs/b2026/results/")
    assert "PKc" in summary and "<svg" not in summary and "BASE F" not in summary


@pytest.mark.parametrize("export", EXPORTS)
def test_before_publication_the_public_gets_no_export(
    anonymous: Client, runs: tuple[Submission, Submission], export: str
) -> None:
    assert anonymous.get(TRACK + export).status_code == 404


@pytest.mark.parametrize("plot", ("f.svg", "oov.svg"))
def test_before_publication_the_public_gets_no_bakeoff_plot(
    anonymous: Client, runs: tuple[Submission, Submission], plot: str
) -> None:
    assert anonymous.get(f"/bakeoffs/b2026/results/{plot}").status_code == 404


def test_before_publication_a_user_without_a_site_sees_nothing(
    client_for: ClientFor, outsider: User, runs: tuple[Submission, Submission]
) -> None:
    assert "S02" not in page(client_for(outsider))
    assert client_for(outsider).get(TRACK + "results.json").status_code == 404


def test_before_publication_a_participant_sees_own_rows_base_and_top(
    client_for: ClientFor, participant: User, runs: tuple[Submission, Submission]
) -> None:
    text = page(client_for(participant))
    assert "S01" in text and "BASE" in text and "TOP" in text
    assert "S02" not in text and "Rivals" not in text


@pytest.mark.parametrize("export", EXPORTS)
def test_before_publication_exports_hold_only_the_participants_rows(
    client_for: ClientFor, participant: User, runs: tuple[Submission, Submission], export: str
) -> None:
    body = client_for(participant).get(TRACK + export).content.decode()
    assert "S01" in body and "BASE" in body
    assert "S02" not in body and "Rivals" not in body


def test_before_publication_a_participant_cannot_open_another_sites_run(
    client_for: ClientFor, participant: User, runs: tuple[Submission, Submission]
) -> None:
    _, theirs = runs
    assert client_for(participant).get(f"{TRACK}runs/{theirs.pk}/").status_code == 404


def test_the_pairs_note_names_only_rows_the_participant_sees(
    client_for: ClientFor,
    participant: User,
    closed: Track,
    runs: tuple[Submission, Submission],
    on_commit: OnCommit,
) -> None:
    upload(participant, closed, SPLIT_RUN, on_commit)
    text = page(client_for(participant))
    (note,) = re.findall(r'<p class="note">(.*?)</p>', text)
    # 14 gold words: every pair is within the intervals; only the participant's own pair shows.
    assert "All runs shown" in note and "S01 run 1" in note and "S01 run 2" in note
    assert "S02" not in note


def test_hidden_scores_hide_the_participants_own_rows(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff, runs: tuple[Submission, Submission]
) -> None:
    bakeoff.hide_scores_until_publication = True
    bakeoff.save()
    mine, _ = runs
    text = page(client_for(participant))
    assert "S01" not in text and "BASE" in text
    assert client_for(participant).get(f"{TRACK}runs/{mine.pk}/").status_code == 404


def test_the_organiser_sees_every_row_with_names(
    client_for: ClientFor, organiser: User, runs: tuple[Submission, Submission]
) -> None:
    text = page(client_for(organiser))
    assert "Team A" in text and "Rivals" in text and "S02" in text


def test_after_publication_the_public_sees_every_row(
    anonymous: Client, bakeoff: Bakeoff, runs: tuple[Submission, Submission]
) -> None:
    publish(bakeoff)
    text = page(anonymous)
    assert "Team A" in text and "Rivals" in text and "BASE" in text
    assert anonymous.get(TRACK + "results.json").status_code == 200
    assert "<svg" in page(anonymous, "/bakeoffs/b2026/results/")


def test_an_anonymised_publication_shows_codes_not_names(
    anonymous: Client,
    client_for: ClientFor,
    organiser: User,
    bakeoff: Bakeoff,
    runs: tuple[Submission, Submission],
) -> None:
    publish(bakeoff, mode="anonymised")
    for body in (page(anonymous), anonymous.get(TRACK + "results.csv").content.decode()):
        assert "P1" in body and "P2" in body
        assert "Team A" not in body and "Rivals" not in body and "S01" not in body
    assert "Rivals" in page(client_for(organiser))


def test_an_anonymised_publication_shows_a_participant_their_own_name(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff, runs: tuple[Submission, Submission]
) -> None:
    publish(bakeoff, mode="anonymised")
    text = page(client_for(participant))
    assert "Team A" in text and "Rivals" not in text
