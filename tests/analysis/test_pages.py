"""The analysis tab of a run, the comparison form, and the track page's bootstrap and profile,
under the leaderboard's visibility rules.

The world (a site's run on PK) is built once for the module; another site's run is uploaded by
each test that asks for it. The case of a corpus without training text, which starts from a
bakeoff with no corpus: test_pages_alone.py."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff.models import Bakeoff, Submission, Track
from tests.factories import (
    PERFECT_RUN,
    SPLIT_RUN,
    publish,
    rival,
    upload,
)
from tests.hints import Answer, ClientFor, OnCommit
from tests.module_world import module_world, taken_from_world

from .analysed_world import TAKEN, build_world

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


def analysis_page(
    client: Client, submission: Submission, compare: Submission | None = None
) -> Answer:
    query = f"?with={compare.pk}" if compare is not None else ""
    return client.get(f"{TRACK}runs/{submission.pk}/analysis/{query}")


def html(answer: Answer) -> str:
    assert answer.status_code == 200
    return answer.content.decode()


# Every test here reads the analysed run, or changes the rows inside its own transaction, which is
# rolled back (tests/module_world.py). The world's own fixture is ``world``: ``mine`` is the run.
built, world = module_world("analysis_pages", build_world)
organiser, participant, bakeoff, closed, mine = (taken_from_world(name, "world") for name in TAKEN)


@pytest.fixture
def theirs(bakeoff: Bakeoff, closed: Track, on_commit: OnCommit) -> Submission:
    user, _ = rival(bakeoff, closed)
    return upload(user, closed, PERFECT_RUN, on_commit)


def base(closed: Track) -> Submission:
    return closed.submissions.get(kind="baseline")


def test_the_tab_shows_a_chart_per_attribute_and_the_self_diagnosis(
    client_for: ClientFor, participant: User, mine: Submission
) -> None:
    page = html(analysis_page(client_for(participant), mine))
    assert page.count("<svg") == 7
    assert "{1}: F = 0.909" in page  # wLen {1}, as the bar's title
    assert "(0, 0.5]: F = 0.000" in page  # wCon: 和 尚未 against 和尚 未结婚
    assert "95% interval [" in page  # the bootstrap interval of a bucket's F
    assert "<td>wLen {3}</td>" in page  # the worst wLen bucket in the self-diagnosis
    # The one script of every page (static/bakeoff/reader.js: zones, countdowns) draws nothing.
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/bakeoff/reader.js" defer>']


def test_the_run_page_links_its_analysis(
    client_for: ClientFor, participant: User, mine: Submission
) -> None:
    page = html(client_for(participant).get(f"{TRACK}runs/{mine.pk}/"))
    assert f"{TRACK}runs/{mine.pk}/analysis/" in page


def test_a_participant_compares_with_base_before_publication(
    client_for: ClientFor, participant: User, closed: Track, mine: Submission
) -> None:
    page = html(analysis_page(client_for(participant), mine, base(closed)))
    assert "Aided diagnosis of S01 run 1 (A) against BASE (B)" in page
    assert "Paired bootstrap (1000 resamples" in page
    assert "probability that BASE's F is not below S01 run 1's" in page


def test_before_publication_the_form_offers_only_own_runs_and_references(
    client_for: ClientFor, participant: User, closed: Track, mine: Submission, theirs: Submission
) -> None:
    page = html(analysis_page(client_for(participant), mine))
    assert f'<option value="{base(closed).pk}"' in page
    assert f'<option value="{theirs.pk}"' not in page and "Rivals" not in page


def test_before_publication_comparing_with_another_sites_run_is_not_found(
    client_for: ClientFor, participant: User, mine: Submission, theirs: Submission
) -> None:
    assert analysis_page(client_for(participant), mine, theirs).status_code == 404


def test_before_publication_another_sites_analysis_is_not_found(
    client_for: ClientFor,
    participant: User,
    anonymous: Client,
    outsider: User,
    mine: Submission,
    theirs: Submission,
) -> None:
    assert analysis_page(client_for(participant), theirs).status_code == 404
    assert analysis_page(client_for(outsider), mine).status_code == 404
    assert analysis_page(anonymous, mine).status_code == 404


def test_a_site_that_sees_no_score_before_publication_sees_no_analysis(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff, mine: Submission
) -> None:
    bakeoff.hide_scores_until_publication = True
    bakeoff.save(update_fields=["hide_scores_until_publication"])
    assert analysis_page(client_for(participant), mine).status_code == 404


def test_a_run_of_another_track_or_garbage_is_not_found(
    client_for: ClientFor, organiser: User, mine: Submission
) -> None:
    client = client_for(organiser)
    assert client.get(f"/bakeoffs/b2026/tracks/pk-open/runs/{mine.pk}/analysis/").status_code == 404
    assert client.get(f"{TRACK}runs/{mine.pk}/analysis/?with=x").status_code == 404
    assert client.get(f"{TRACK}runs/{mine.pk}/analysis/?with={mine.pk}").status_code == 404


def test_after_publication_everyone_compares_any_two_runs(
    anonymous: Client,
    client_for: ClientFor,
    participant: User,
    bakeoff: Bakeoff,
    mine: Submission,
    theirs: Submission,
) -> None:
    publish(bakeoff)
    for client in (anonymous, client_for(participant)):
        page = html(analysis_page(client, mine, theirs))
        assert "Aided diagnosis of S02 run 1 (A) against S01 run 1 (B)" in page


def test_the_organiser_compares_any_two_runs_before_publication(
    client_for: ClientFor, organiser: User, mine: Submission, theirs: Submission
) -> None:
    page = html(analysis_page(client_for(organiser), theirs, mine))
    assert "Aided diagnosis of S02 run 1 (A) against S01 run 1 (B)" in page
    assert "A beats B by" in page  # the perfect run: B beats A nowhere


def test_the_track_page_shows_the_adjacent_bootstrap_and_the_profile(
    client_for: ClientFor,
    organiser: User,
    bakeoff: Bakeoff,
    closed: Track,
    mine: Submission,
    theirs: Submission,
    on_commit: OnCommit,
) -> None:
    user, _ = rival(bakeoff, closed, "Thirds")
    upload(user, closed, SPLIT_RUN, on_commit)
    page = html(client_for(organiser).get(TRACK))
    assert "Paired bootstrap between adjacent ranks" in page
    assert page.count("<tr><td>S0") == 2  # ranks 1-2 and 2-3
    assert "Attribute profile of the track" in page and "Friedman p" in page
    assert page.count("<svg") == 2


def test_before_publication_a_participant_sees_no_profile_nor_others_pairs(
    client_for: ClientFor,
    participant: User,
    mine: Submission,
    theirs: Submission,
    on_commit: OnCommit,
    closed: Track,
) -> None:
    upload(participant, closed, SPLIT_RUN, on_commit)  # a second run of mine
    page = html(client_for(participant).get(TRACK))
    assert "Attribute profile of the track" not in page
    assert "Paired bootstrap between adjacent ranks" in page  # my two runs
    assert "S02" not in page


def test_stored_attribute_dicts_show_in_spec_order_whatever_the_database_kept() -> None:
    from analysis.templatetags.analysis_tags import in_attribute_order

    assert in_attribute_order({"wCon": 1, "cCon": 2, "wLen": 3}) == [
        ("wLen", 3),
        ("wCon", 1),
        ("cCon", 2),
    ]


def test_a_published_version_shows_the_analysis_as_it_was_published(
    anonymous: Client, bakeoff: Bakeoff, closed: Track, mine: Submission, theirs: Submission
) -> None:
    from analysis.models import TrackAnalysis
    from leaderboard.models import ResultsVersion

    publish(bakeoff)
    frozen = ResultsVersion.objects.get(bakeoff=bakeoff).tracks.get(track=closed).data
    assert frozen["sections"]["analysis"]["pairs"]  # the bootstraps, frozen with the table
    before = html(anonymous.get(TRACK))
    assert "Paired bootstrap between adjacent ranks" in before
    assert "Attribute profile of the track" in before
    # the live analysis changes (a re-analysis after a new gold, say); the public page does not
    TrackAnalysis.objects.filter(track=closed).update(pairs={}, adjacent=[], profile=[])
    after = html(anonymous.get(TRACK))
    assert after.count("<tr><td>S0") == before.count("<tr><td>S0") == 1
    assert "Friedman p" in after
