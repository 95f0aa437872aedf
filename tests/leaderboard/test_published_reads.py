"""After publication a reader sees an official run as the newest results version froze it, sections
of the apps above included: a committee that finishes after publication (issue 22: results v1
froze F_b 0.349 for S02 run 1, and the run's public page then said 0.736) or a re-analysis changes
no public page, export or API answer; the organisers see what moved as pending for the next
erratum; the erratum makes it public. A version frozen before the sections were kept still reads,
and says what it lacks rather than show live figures.

(test_frozen_reads.py walks every read through a new gold version; this file, the sections; its
cases that start from no published world: test_published_reads_alone.py.)"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.test import Client, override_settings
from pytest_django import Settings
from rest_framework.test import APIClient

from analysis import prepared
from bakeoff import services
from bakeoff.models import (
    Bakeoff,
    BucketScheme,
    Corpus,
    Submission,
    SubmissionPhase,
    Track,
)
from leaderboard.models import FrozenTrack, TrackStanding
from leaderboard.services import do_publish_erratum
from psychometric import services as psychometric
from tests.factories import (
    PERFECT_RUN,
    WORKED_RUN,
    publish,
    rival,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world
from tests.psychometric.factories import TRAINING, build

from .registered_world import Registered, registered
from .test_versions import correct_the_gold

pytestmark = pytest.mark.django_db

B = "/bakeoffs/b2026/"
T = B + "tracks/pk-closed/"
API = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/"
PENDING = "Pending for the next erratum"


@pytest.fixture(autouse=True)
def fresh_caches(settings: Settings) -> Iterator[None]:
    settings.ANALYSIS_BOOTSTRAP_SAMPLES = 20  # analysed after every score: keep it quick
    psychometric.clear()
    prepared.clear()
    yield
    psychometric.clear()
    prepared.clear()


@dataclass
class World:
    run: Submission
    rival_run: Submission
    anonymous: Client
    participant: Client
    organiser: Client


@dataclass
class Built(Registered):
    """The world as built once for the module, and what the shared fixtures would have given."""

    run: Submission
    rival_run: Submission


def build_world(on_commit: OnCommit) -> Built:
    """Two runs, rated by a committee, then the results published as version 1. The corpus has
    a segmented training text: a CRF committee is trained on it, the analysis has all seven
    attributes."""
    world = registered(on_commit, training=TRAINING)
    run = upload(world.participant, world.closed, WORKED_RUN, on_commit)
    user, _ = rival(world.bakeoff, world.closed)
    rival_run = upload(user, world.closed, PERFECT_RUN, on_commit)
    build(world.corpus, on_commit, k=3, seed=1)
    with on_commit():
        publish(world.bakeoff)
    return Built(**vars(world), run=run, rival_run=rival_run)


def build_quickly() -> Built:
    """``build_world`` with the analysis of fresh_caches, its caches cleared before and after."""
    with override_settings(ANALYSIS_BOOTSTRAP_SAMPLES=20):  # as fresh_caches
        psychometric.clear()
        prepared.clear()
        world = build_world(captured_on_commit)
        psychometric.clear()
        prepared.clear()
    return world


# Every test here reads the world after publication, and what it changes (a committee, a gold
# version, an erratum) is rolled back (tests/module_world.py).
built, mine = module_world("published_reads", build_quickly)
# The shared fixtures, of the world built once (theirs would make another bakeoff b2026).
bakeoff, corpus, closed, participant, organiser = map(
    taken_from_world, ("bakeoff", "corpus", "closed", "participant", "organiser")
)


@pytest.fixture
def world(mine: Built, client_for: ClientFor) -> World:
    return World(
        mine.run,
        mine.rival_run,
        Client(),
        client_for(mine.participant),
        client_for(mine.organiser),
    )


def _f_b(run: Submission) -> float:
    f_b = TrackStanding.objects.get(submission=run).f_b
    assert f_b is not None
    return f_b


def _a_later_committee(corpus: Corpus, run: Submission, on_commit: OnCommit) -> float:
    """A committee that finishes after publication, as the issue's CRF committee did: answers the
    run's F_b it makes live, which differs from the published one in three decimals."""
    published = _f_b(run)
    build(corpus, on_commit, k=2, seed=7)
    live = _f_b(run)
    assert f"{live:.3f}" != f"{published:.3f}"
    return live


def _text(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.content.decode()


def _json_f_b(client: Client, path: str) -> float:
    rows = json.loads(_text(client, path))["rows"]
    return float(next(r for r in rows if r["site"] == "S01")["f_b"])


def balanced(client: Client, path: str) -> str:
    """The run page's balanced section (psychometric's), alone."""
    html = _text(client, path)
    assert "Balanced scores" in html
    return html.split("Balanced scores", 1)[1].split("Per-line comparison", 1)[0]


# What a reader reads, and how S01's F_b is read from it: a str is searched for F_b with three
# decimals, a float compared with it.
READS: dict[str, Callable[[World], str | float]] = {
    "track page": lambda w: _text(w.anonymous, T),
    "track page, the site": lambda w: _text(w.participant, T),
    "run page's balanced section": lambda w: balanced(w.anonymous, f"{T}runs/{w.run.pk}/"),
    "run page's balanced section, the site": lambda w: balanced(
        w.participant, f"{T}runs/{w.run.pk}/"
    ),
    "results.csv": lambda w: _text(w.anonymous, T + "results.csv"),
    "results.tex": lambda w: _text(w.anonymous, T + "results.tex"),
    "results.json": lambda w: _json_f_b(w.anonymous, T + "results.json"),
    "version 1's run page": lambda w: balanced(
        w.anonymous, f"{B}results/v1/tracks/pk-closed/runs/{w.run.pk}/"
    ),
}


def _shows(read: str | float, f_b: float, other: float | None = None) -> bool:
    if isinstance(read, float):
        return read == f_b
    return f"{f_b:.3f}" in read and (other is None or f"{other:.3f}" not in read)


@pytest.mark.parametrize("name", list(READS))
def test_a_committee_after_publication_changes_no_public_f_b_until_the_erratum(
    name: str, world: World, bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    read = READS[name]
    published = _f_b(world.run)
    assert _shows(read(world), published)
    live = _a_later_committee(corpus, world.run, on_commit)
    assert _shows(read(world), published, live), name
    with on_commit():
        do_publish_erratum(bakeoff, note="F_b of the CRF committee")
    if name == "version 1's run page":  # a version stays as it was published
        assert _shows(read(world), published, live)
    else:
        assert _shows(read(world), live, published), name


def test_the_run_page_says_which_version_its_balanced_scores_are_from(
    world: World, corpus: Corpus, on_commit: OnCommit
) -> None:
    _a_later_committee(corpus, world.run, on_commit)
    section = balanced(world.anonymous, f"{T}runs/{world.run.pk}/")
    assert "As published in results version 1." in section
    assert 'Committee</td><td class="num">1</td>' in section.replace("\n", "")


def test_the_organiser_sees_the_moved_f_b_as_pending_for_the_erratum(
    world: World, bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    run_page = f"{T}runs/{world.run.pk}/"
    published = _f_b(world.run)
    assert PENDING not in _text(world.organiser, run_page)
    live = _a_later_committee(corpus, world.run, on_commit)

    theirs = _text(world.organiser, run_page)
    assert PENDING in theirs
    note = theirs.split(PENDING, 1)[1].split("</div>", 1)[0]
    assert f"balanced F {published:.3f} → {live:.3f}" in note
    assert "publish an erratum" in note and f"{B}results/erratum/" in note
    # the figures themselves, the balanced section's included, are the published ones
    assert _shows(balanced(world.organiser, run_page), published, live)
    assert PENDING in _text(world.organiser, B + "results/")
    for reader in (world.anonymous, world.participant):
        assert PENDING not in _text(reader, run_page)
        assert PENDING not in _text(reader, B + "results/")
        assert f"{live:.3f}" not in _text(reader, run_page)

    with on_commit():
        do_publish_erratum(bakeoff, note="F_b of the CRF committee")
    assert PENDING not in _text(world.organiser, run_page)
    assert PENDING not in _text(world.organiser, B + "results/")


def test_an_older_version_page_shows_no_pending_note(
    world: World, bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    """The note compares the live figures with the newest version: not with an older one."""
    _a_later_committee(corpus, world.run, on_commit)
    with on_commit():
        do_publish_erratum(bakeoff, note="F_b of the CRF committee")
    path = f"{B}results/v1/tracks/pk-closed/runs/{world.run.pk}/"
    assert PENDING not in _text(world.organiser, path)


def test_a_committee_after_publication_mails_no_reader(
    world: World,
    corpus: Corpus,
    participant: User,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    participant.email = "pat@example.org"
    participant.save()
    mailoutbox.clear()
    live = _a_later_committee(corpus, world.run, on_commit)
    assert not [m for m in mailoutbox if "pat@example.org" in m.to]
    assert not [m for m in mailoutbox if f"{live:.3f}" in str(m.body)]


def test_a_committee_after_publication_tells_the_organisers_an_erratum_is_pending(
    world: World,
    corpus: Corpus,
    organiser: User,
    on_commit: OnCommit,
    mailoutbox: list[EmailMessage],
) -> None:
    organiser.email = "org@example.org"
    organiser.save()
    mailoutbox.clear()
    _a_later_committee(corpus, world.run, on_commit)
    (told,) = [m for m in mailoutbox if "org@example.org" in m.to]
    assert "pending for the next erratum" in str(told.body)
    assert "/bakeoffs/b2026/results/erratum/" in str(told.body)


def test_the_api_keeps_the_published_scores_through_a_committee_and_a_new_gold(
    world: World, corpus: Corpus, participant: User, organiser: User, on_commit: OnCommit
) -> None:
    def scores(user: User) -> dict[str, object]:
        client = APIClient()
        client.force_authenticate(user)
        body = client.get(f"{API}{world.run.pk}/").json()
        assert body["results_version"] == 1
        return dict(body["scores"])

    published = scores(participant)
    _a_later_committee(corpus, world.run, on_commit)
    correct_the_gold(corpus, on_commit)
    assert scores(participant) == published
    assert scores(organiser) == published


# -- the analysis tab --------------------------------------------------------------------------


def _analysis(client: Client, world: World, query: str = "") -> str:
    return _text(client, f"{T}runs/{world.run.pk}/analysis/{query}")


def test_a_reanalysis_after_publication_changes_no_public_analysis_until_the_erratum(
    world: World, bakeoff: Bakeoff, closed: Track, corpus: Corpus, on_commit: OnCommit
) -> None:
    default, interpreteval = "rethinkcws-default/1", "interpreteval/1"
    compare = f"?with={world.rival_run.pk}"
    for client in (world.anonymous, world.participant, world.organiser):
        page = _analysis(client, world)
        assert default in page and interpreteval not in page
        assert "As published in results version 1." in page
    with on_commit():
        assert services.do_set_bucket_scheme(closed, BucketScheme.INTERPRETEVAL)
    for client in (world.anonymous, world.participant, world.organiser):
        for query in ("", compare):
            page = _analysis(client, world, query)
            assert default in page and interpreteval not in page, query
    # An erratum (here for a committee's F_b) freezes the analysis as it stands then.
    _a_later_committee(corpus, world.run, on_commit)
    with on_commit():
        do_publish_erratum(bakeoff, note="F_b, and the runs cut as InterpretEval cuts them")
    page = _analysis(world.anonymous, world, compare)
    assert interpreteval in page and default not in page
    assert "As published in results version 2." in page


# -- a version frozen before the sections were kept ----------------------------------------------


def _freeze_as_before(bakeoff: Bakeoff) -> None:
    """Version 1 as a release before this one froze it: no balanced scores, and of the analysis
    the track's alone."""
    for frozen in FrozenTrack.objects.filter(version__bakeoff=bakeoff):
        sections = frozen.data["sections"]
        sections.pop("psychometric", None)
        sections.get("analysis", {}).pop("runs", None)
        frozen.save()


def test_a_version_frozen_before_the_sections_still_reads_and_says_what_it_lacks(
    world: World, bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit
) -> None:
    _freeze_as_before(bakeoff)
    live = _a_later_committee(corpus, world.run, on_commit)
    for client in (world.anonymous, world.participant, world.organiser):
        section = balanced(client, f"{T}runs/{world.run.pk}/")
        assert "The balanced scores are not in results version 1" in section
        assert f"{live:.3f}" not in section
        analysis = _analysis(client, world)
        assert "The attribute analysis of this run is not in results version 1" in analysis
        assert "F per bucket" not in analysis
        assert _text(client, T)  # the track page and its analysis sections
        assert "Paired bootstrap between adjacent ranks" in _text(client, T)


def test_a_version_frozen_without_any_section_still_reads(world: World, bakeoff: Bakeoff) -> None:
    for frozen in FrozenTrack.objects.filter(version__bakeoff=bakeoff):
        del frozen.data["sections"]
        frozen.save()
    for client in (world.anonymous, world.organiser):
        assert "not in results version 1" in _text(client, f"{T}runs/{world.run.pk}/")
        assert "not in results version 1" in _analysis(client, world)
        assert _text(client, T) and _text(client, T + "results.csv")


# -- the post-bakeoff run page names official runs as published ---------------------------------


def test_a_post_bakeoff_run_page_names_the_official_runs_as_published(
    world: World, bakeoff: Bakeoff, closed: Track, corpus: Corpus, on_commit: OnCommit
) -> None:
    closed.post_bakeoff_open = True
    closed.save()
    late, _ = rival(bakeoff, closed, "Latecomers")
    with on_commit():
        later = services.submit_run(
            late, closed, WORKED_RUN.encode(), phase=SubmissionPhase.POST_BAKEOFF
        )
    published = TrackStanding.objects.get(submission=world.run).score.f
    correct_the_gold(corpus, on_commit)  # every run re-scored, the post-bakeoff one live
    live = TrackStanding.objects.get(submission=world.run).score.f
    assert published is not None and live is not None
    assert f"{live:.3f}" != f"{published:.3f}"
    page = _text(world.anonymous, f"{T}runs/{later.pk}/")
    tied = page.split("Significance against the official runs", 1)[1]
    assert "S01 run 1" in tied
    assert f"F {published:.3f}" in tied and f"F {live:.3f}" not in tied
