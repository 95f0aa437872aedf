"""The committee on the corpus page, F_b in the track table, balanced scores on the run page.

The corpus (PK with its training text, BASE and TOP scored) is built once for the module; the
site and the run of each test are its own, as the shared fixtures make them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bakeoff.models import Bakeoff, Corpus, Site, Submission, Track
from leaderboard.models import TrackStanding
from psychometric.forms import CommitteeForm
from psychometric.models import Committee, CommitteeStatus
from scoring.psychometric.committee import DEFAULT_K
from tests.factories import (
    WORKED_RUN,
    make_scored_runs,
    publish,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import module_world, taken_from_world

from .factories import build, built_as_the_package_tests

pytestmark = pytest.mark.django_db

CORPUS = "/bakeoffs/b2026/corpora/PK/"
TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


# Every test here starts from the scored corpus and changes it (its site, runs, committees) inside
# its own transaction, which is rolled back (tests/module_world.py). The world's own fixture is
# ``world``: ``mine`` is a test's run.
built, world = module_world("psychometric_pages", lambda: built_as_the_package_tests(lambda w: w))
# The shared fixtures, of the world built once (theirs would make another bakeoff b2026); the
# shared ``site`` is made on them for each test that asks for it.
organiser, participant, bakeoff, corpus, closed = (
    taken_from_world(name, "world")
    for name in ("organiser", "participant", "bakeoff", "corpus", "closed")
)


@pytest.fixture
def mine(participant: User, site: Site, closed: Track, on_commit: OnCommit) -> Submission:
    return upload(participant, closed, WORKED_RUN, on_commit)


def page(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_organiser_starts_a_committee_from_the_corpus_page(
    client_for: ClientFor, organiser: User, corpus: Corpus, on_commit: OnCommit
) -> None:
    client = client_for(organiser)
    assert "Build a committee" in page(client, CORPUS)
    with on_commit():
        answer = client.post(CORPUS + "committees/", {"kind": "crf", "k": 2, "seed": 3})
    assert answer.status_code == 302
    committee = Committee.objects.get()
    assert (committee.status, committee.k, committee.seed) == ("complete", 2, 3)
    assert committee.signature in page(client, CORPUS)


def test_the_corpus_page_shows_the_progress(
    client_for: ClientFor, organiser: User, corpus: Corpus
) -> None:
    gold = corpus.current_gold()
    assert gold is not None
    Committee.objects.create(
        corpus=corpus,
        gold_version=gold,
        number=1,
        kind="crf",
        k=16,
        status=CommitteeStatus.RUNNING,
        members_done=5,
        requested_at=timezone.now(),
    )
    assert "5 of 16 members done (31%)" in page(client_for(organiser), CORPUS)


def test_a_refused_committee_says_why(
    client_for: ClientFor, organiser: User, corpus: Corpus, on_commit: OnCommit
) -> None:
    client = client_for(organiser)
    client.post(CORPUS + "committees/", {"kind": "runs", "seed": 1})  # BASE is a member
    Committee.objects.update(status=CommitteeStatus.RUNNING)
    answer = client.post(CORPUS + "committees/", {"kind": "crf", "k": 2, "seed": 1}, follow=True)
    assert "being built" in answer.content.decode()


@pytest.mark.parametrize("persona", ["participant", "outsider", None])
def test_only_the_organiser_may_start_a_committee(
    request: pytest.FixtureRequest,
    client_for: ClientFor,
    corpus: Corpus,
    site: Site,
    persona: str | None,
) -> None:
    user = request.getfixturevalue(persona) if persona else None
    client = client_for(user)
    answer = client.post(CORPUS + "committees/", {"kind": "crf", "k": 2, "seed": 1})
    assert answer.status_code in (302, 404)
    if user is not None:
        assert answer.status_code == 404
    assert not Committee.objects.exists()
    assert "Build a committee" not in page(client, CORPUS)


def test_the_track_table_has_a_sortable_f_b_column(
    client_for: ClientFor, organiser: User, corpus: Corpus, mine: Submission, on_commit: OnCommit
) -> None:
    client = client_for(organiser)
    assert "F<sub>b</sub>" in page(client, TRACK)
    build(corpus, on_commit)
    mine.standing.refresh_from_db()
    f_b = f"{mine.standing.f_b:.3f}"
    assert f_b in page(client, TRACK)
    ascending = page(client, TRACK + "?sort=f_b")
    descending = page(client, TRACK + "?sort=-f_b")
    # TOP (F_b 1.000) comes last in ascending order and first in descending.
    assert ascending.rindex("1.000") > ascending.index(f_b)
    assert descending.index("TOP") < descending.index(f_b)


def test_the_run_page_shows_balanced_scores_and_the_difficulty_chart(
    client_for: ClientFor,
    participant: User,
    bakeoff: Bakeoff,
    corpus: Corpus,
    mine: Submission,
    on_commit: OnCommit,
) -> None:
    client = client_for(participant)
    build(corpus, on_commit, kind="runs")
    sealed = page(client, f"{TRACK}runs/{mine.pk}/")  # the committee is made of the runs
    assert "Balanced scores are shown with the results" in sealed and "<svg" not in sealed
    publish(bakeoff)
    html = page(client, f"{TRACK}runs/{mine.pk}/")
    balanced = mine.scores.get(metric="balanced")
    assert f"{balanced.f:.3f}" in html and f"{balanced.recall:.3f}" in html
    assert "<svg" in html and "[0.0, 0.1]" in html and "(0.9, 1.0]" in html
    assert balanced.signature in html


def test_the_hardest_words_are_gold_data_hidden_from_participants_before_publication(
    client_for: ClientFor,
    participant: User,
    organiser: User,
    bakeoff: Bakeoff,
    corpus: Corpus,
    mine: Submission,
    on_commit: OnCommit,
) -> None:
    committee = build(corpus, on_commit)
    hardest = committee.hardest[0]["word"]
    path = f"{TRACK}runs/{mine.pk}/"
    html = page(client_for(participant), path)
    assert "shown with the results, once published" in html and "Found by this run" not in html
    assert "Found by this run" in page(client_for(organiser), path)
    publish(bakeoff)
    html = page(client_for(None), path)
    # a gold word, Chinese in an English page: marked as such for a screen reader
    assert "Found by this run" in html and f'<td><span lang="zh">{hardest}</span></td>' in html


def test_the_track_page_makes_the_same_queries_with_balanced_scores(
    client_for: ClientFor,
    organiser: User,
    corpus: Corpus,
    closed: Track,
    mine: Submission,
    on_commit: OnCommit,
) -> None:
    client = client_for(organiser)
    make_scored_runs(closed, 3)
    client.get(TRACK)
    with CaptureQueriesContext(connection) as before:
        client.get(TRACK)
    build(corpus, on_commit)
    make_scored_runs(closed, 20)
    with CaptureQueriesContext(connection) as after:
        client.get(TRACK)
    assert len(after) == len(before)


def test_the_exports_carry_f_b_once_a_committee_has_rated_the_corpus(
    corpus: Corpus,
    closed: Track,
    site: Site,
    participant: User,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    import csv
    import io
    import json

    organiser_client = client_for(organiser)
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    base = f"/bakeoffs/{corpus.bakeoff.slug}/tracks/{closed.slug}/results"
    before = organiser_client.get(base + ".tex").content.decode()
    assert "$F_b$" not in before
    build(corpus, on_commit)
    f_b = TrackStanding.objects.get(submission=mine).f_b
    rows = list(csv.DictReader(io.StringIO(organiser_client.get(base + ".csv").content.decode())))
    assert {row["F_b"] for row in rows if row["site"] == "S01"} == {f"{f_b:.3f}"}
    data = json.loads(organiser_client.get(base + ".json").content)
    assert [row["f_b"] for row in data["rows"] if row["site"] == "S01"] == [pytest.approx(f_b)]
    assert "$F_b$" in organiser_client.get(base + ".tex").content.decode()


def test_k_is_for_crf_committees_only(
    client_for: ClientFor, organiser: User, corpus: Corpus, on_commit: OnCommit
) -> None:
    """A committee of runs has one member per scored run: a K given with it is refused, not
    silently ignored (asked 3, got 7)."""
    client = client_for(organiser)
    answer = client.post(
        CORPUS + "committees/",
        {"kind": "runs", "k": 3, "seed": 1},
        headers={"accept-language": "zh-CN"},
        follow=True,
    )
    assert not Committee.objects.exists()
    assert "K 仅用于 CRF 委员会" in answer.content.decode()
    form = CommitteeForm({"kind": "crf", "seed": 1})
    assert form.is_valid() and form.cleaned_data["k"] == DEFAULT_K
