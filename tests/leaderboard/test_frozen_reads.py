"""After publication every public read agrees with the published results version: a new gold
version re-scores every run, and until an erratum publishes it no page, export, plot or API answer
shows a re-scored figure; once the erratum is out, every one of them shows the new figures.

One table of reads: each entry fetches what a reader sees and says in what form it prints S01's
F (three decimals on pages and in the CSV, LaTeX and SVG; the float in JSON and the API).

The world is built once for the module; the case before publication: test_frozen_reads_alone.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client
from rest_framework.test import APIClient

from bakeoff.models import Bakeoff, Corpus, Score, Submission, SubmissionKind, Track
from leaderboard.services import do_publish_erratum
from tests.factories import (
    WORKED_RUN,
    publish,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import Registered, registered
from .test_versions import correct_the_gold

pytestmark = pytest.mark.django_db

B = "/bakeoffs/b2026/"
T = B + "tracks/pk-closed/"
API = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/"


@dataclass
class World:
    run: Submission
    base: Submission
    anonymous: Client
    participant: Client
    organiser: Client
    api_participant: APIClient
    api_organiser: APIClient


def api_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _text(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.content.decode()


def _api_f(client: APIClient, path: str, pk: int) -> float:
    body = client.get(path).json()
    found = next(r for r in body.get("results", [body]) if r["id"] == pk)
    return float(found["scores"]["f"])


def _json_f(client: Client, path: str) -> float:
    rows = json.loads(_text(client, path))["rows"]
    return float(next(r for r in rows if r["kind"] == SubmissionKind.RUN)["score"]["f"])


# (what is read, how S01's F is read from it): a str is searched for the F printed with three
# decimals, a float compared with the F itself.
READS: dict[str, Callable[[World], str | float]] = {
    "track page": lambda w: _text(w.anonymous, T),
    "track page, organiser": lambda w: _text(w.organiser, T),
    "table by domain": lambda w: _text(w.anonymous, T + "domains/"),
    "results.csv": lambda w: _text(w.anonymous, T + "results.csv"),
    "results.tex": lambda w: _text(w.anonymous, T + "results.tex"),
    "results.json": lambda w: _json_f(w.anonymous, T + "results.json"),
    "track plot": lambda w: _text(w.anonymous, T + "f.svg"),
    # the summary (best F) and the plots, after the list of what the erratum changed
    "results page": lambda w: _text(w.anonymous, B + "results/").split('class="summary"')[1],
    "systems plot": lambda w: _text(w.anonymous, B + "results/f.svg"),
    "run page": lambda w: _text(w.anonymous, f"{T}runs/{w.run.pk}/"),
    "BASE's analysis, comparing with S01": lambda w: _text(
        w.anonymous, f"{T}runs/{w.base.pk}/analysis/"
    ),
    "the site's runs": lambda w: _text(w.participant, B + "submissions/"),
    # its scores, without the history of its scores against each released gold version
    "the site's run": lambda w: _text(w.participant, f"{B}submissions/{w.run.pk}/").split(
        "History"
    )[0],
    "API list": lambda w: _api_f(w.api_participant, API, w.run.pk),
    "API run": lambda w: _api_f(w.api_participant, f"{API}{w.run.pk}/", w.run.pk),
    "API list, organiser": lambda w: _api_f(w.api_organiser, API, w.run.pk),
}


def _shows(read: str | float, f: float, other: float | None = None) -> bool:
    """``read`` shows F ``f`` and not ``other``."""
    if isinstance(read, float):
        return read == f
    return f"{f:.3f}" in read and (other is None or f"{other:.3f}" not in read)


@dataclass
class Built(Registered):
    """The world as built once for the module, and what the shared fixtures would have given."""

    run: Submission
    base: Submission


def build_world(on_commit: OnCommit) -> Built:
    """PK with its lines labelled by domain (for the table by domain), BASE and TOP scored; S01's
    run, then the results published as version 1."""
    world = registered(on_commit, domains="news\nweibo\nnews\n")
    run = upload(world.participant, world.closed, WORKED_RUN, on_commit)
    with on_commit():
        publish(world.bakeoff)
    base = Submission.objects.get(track=world.closed, kind=SubmissionKind.BASELINE)
    return Built(**vars(world), run=run, base=base)


# Every test here reads the world after publication, and what it changes (a gold version, an
# erratum) is rolled back (tests/module_world.py).
built, mine = module_world("frozen_reads", lambda: build_world(captured_on_commit))
# The shared fixtures, of the world built once (theirs would make another bakeoff b2026).
bakeoff, corpus, closed, participant = map(
    taken_from_world, ("bakeoff", "corpus", "closed", "participant")
)


@pytest.fixture
def world(mine: Built, client_for: ClientFor) -> World:
    return World(
        run=mine.run,
        base=mine.base,
        anonymous=Client(),
        participant=client_for(mine.participant),
        organiser=client_for(mine.organiser),
        api_participant=api_for(mine.participant),
        api_organiser=api_for(mine.organiser),
    )


def live_f(run: Submission) -> float:
    score = Score.objects.get(submission=run, superseded_at__isnull=True)
    assert score.f is not None
    return score.f


@pytest.mark.parametrize("name", list(READS))
def test_every_read_shows_the_published_figures_until_the_erratum(
    name: str, world: World, bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    read = READS[name]
    published = live_f(world.run)
    assert _shows(read(world), published)
    correct_the_gold(corpus, on_commit)  # gold v2: every run re-scored
    rescored = live_f(world.run)
    assert f"{rescored:.3f}" != f"{published:.3f}"  # the correction moves S01's F
    assert _shows(read(world), published, rescored), name
    with on_commit():
        do_publish_erratum(bakeoff, note="今天天气 is one word")
    assert _shows(read(world), rescored, published), name


def test_the_api_gives_the_organiser_the_live_figures_apart(
    world: World, corpus: Corpus, on_commit: OnCommit
) -> None:
    published = live_f(world.run)
    correct_the_gold(corpus, on_commit)
    mine = world.api_participant.get(f"{API}{world.run.pk}/").json()
    theirs = world.api_organiser.get(f"{API}{world.run.pk}/").json()
    assert (mine["results_version"], mine["gold_version"]) == (1, 1)
    assert "live_scores" not in mine and "live_gold_version" not in mine
    assert (theirs["results_version"], theirs["gold_version"]) == (1, 1)
    assert theirs["scores"]["f"] == published
    assert theirs["live_gold_version"] == 2
    assert theirs["live_scores"]["f"] == live_f(world.run)


def test_the_organiser_sees_the_live_figures_labelled_on_the_run(
    world: World, corpus: Corpus, on_commit: OnCommit
) -> None:
    path = f"{B}submissions/{world.run.pk}/"
    correct_the_gold(corpus, on_commit)
    theirs = _text(world.organiser, path)
    mine = _text(world.participant, path)
    assert "Live figures, not published" in theirs
    assert f"{live_f(world.run):.3f}" in theirs.split("Live figures, not published", 1)[1]
    assert "Live figures" not in mine
    assert "As published in results version 1." in mine
    # nor in the history of its scores: gold version 2 is not released yet
    # (a whole-cell match: the page's CSRF token is random letters and digits)
    assert f"{live_f(world.run):.3f}" not in mine and "<td>v2</td>" not in mine
    assert "<td>v2</td>" in theirs  # the organiser sees the history, so the pattern is right


def test_a_post_bakeoff_run_stays_live_in_the_api(
    world: World, bakeoff: Bakeoff, closed: Track, participant: User, on_commit: OnCommit
) -> None:
    from bakeoff import services

    services.do_open_post_bakeoff(closed)
    with on_commit():
        run = services.submit_run(
            participant, closed, WORKED_RUN.encode(), phase="post_bakeoff", description="later"
        )
    body = world.api_participant.get(f"{API}{run.pk}/").json()
    assert body["official"] is False and "results_version" not in body
    assert body["scores"]["f"] == live_f(run)


def test_a_rescore_after_publication_mails_no_figure(
    world: World,
    corpus: Corpus,
    participant: User,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    participant.email = "pat@example.org"
    participant.save()
    mailoutbox.clear()
    correct_the_gold(corpus, on_commit)
    rescored = live_f(world.run)
    assert not [m for m in mailoutbox if f"{rescored:.3f}" in str(m.body)]
    assert not [m for m in mailoutbox if "pat@example.org" in m.to]
    with on_commit():
        do_publish_erratum(world.run.track.corpus.bakeoff, note="corrected")
    told = [m for m in mailoutbox if "pat@example.org" in m.to]
    assert len(told) == 1 and "/bakeoffs/b2026/results/v2/" in str(told[0].body)


def test_the_comparison_with_the_gold_uses_the_published_gold_version(
    world: World, bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    def header() -> str:
        answer = world.participant.get(f"{T}runs/{world.run.pk}/comparison.txt")
        assert answer.status_code == 200
        return b"".join(answer.streaming_content).decode().splitlines()[0]  # type: ignore[attr-defined]

    assert "with gold version 1 " in header()
    correct_the_gold(corpus, on_commit)
    assert "with gold version 1 " in header()
    with on_commit():
        do_publish_erratum(bakeoff, note="corrected")
    assert "with gold version 2 " in header()
