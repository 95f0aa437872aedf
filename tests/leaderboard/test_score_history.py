"""The history of a run's scores on its page labels each row by what it means to the reader: the
score a results version published, one an erratum superseded, the live score, an older one. The
organisers and the site read the same label on the same row; only the organisers see the rows of
a gold version no results version has published yet."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Site, Submission, Track
from leaderboard.services import do_publish_erratum
from tests.factories import WORKED_RUN, publish, upload
from tests.hints import ClientFor, OnCommit

from .test_versions import CORRECTED_GOLD, correct_the_gold

pytestmark = pytest.mark.django_db

# A second correction: 北京工作 one word, so WORKED_RUN's F moves again.
CORRECTED_AGAIN = CORRECTED_GOLD.replace("北京 工作", "北京工作")


def history(client: Client, run: Submission, language: str = "en") -> dict[str, str]:
    """The History table of the run's page (its rows alone start with a gold version's
    cell): gold version ("v1") → the row's label, the last cell."""
    page = client.get(f"/bakeoffs/b2026/submissions/{run.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    return {
        gold: re.findall(r"<td[^>]*>(.*?)</td>", row)[-1]
        for gold, row in re.findall(r"<tr><td>(v\d+)</td>(.*?)</tr>", page.content.decode())
    }


@pytest.fixture
def run(participant: User, site: Site, closed: Track, on_commit: OnCommit) -> Submission:
    return upload(participant, closed, WORKED_RUN, on_commit)


def correct_again(corpus: Corpus, on_commit: OnCommit) -> None:
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED_AGAIN.encode(), note="北京工作 is one word")


def test_before_publication_the_rows_are_current_or_superseded(
    run: Submission, corpus: Corpus, participant: User, client_for: ClientFor, on_commit: OnCommit
) -> None:
    correct_the_gold(corpus, on_commit)
    assert history(client_for(participant), run) == {"v2": "current", "v1": "superseded"}


def test_the_published_score_says_so_while_a_correction_waits_for_its_erratum(
    run: Submission,
    bakeoff: Bakeoff,
    corpus: Corpus,
    participant: User,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    with on_commit():
        publish(bakeoff)
    correct_the_gold(corpus, on_commit)  # gold v2: every run re-scored, nothing published
    theirs = history(client_for(organiser), run)
    assert theirs == {
        "v2": "current, not published",
        "v1": "published in results version 1",
    }
    # the site sees one released gold version only: no history, and no v2
    assert history(client_for(participant), run) == {}


def test_after_an_erratum_both_read_which_version_published_which_figure(
    run: Submission,
    bakeoff: Bakeoff,
    corpus: Corpus,
    participant: User,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    with on_commit():
        publish(bakeoff)
    correct_the_gold(corpus, on_commit)
    with on_commit():
        do_publish_erratum(bakeoff, note="今天天气 is one word")
    correct_again(corpus, on_commit)  # gold v3, not published: v2 is superseded in the database
    published = {
        "v2": "published in results version 2",
        "v1": "published in results version 1, superseded by version 2",
    }
    assert history(client_for(participant), run) == published
    assert history(client_for(organiser), run) == {"v3": "current, not published", **published}


def test_the_labels_are_in_the_readers_language(
    run: Submission,
    bakeoff: Bakeoff,
    corpus: Corpus,
    organiser: User,
    client_for: ClientFor,
    on_commit: OnCommit,
) -> None:
    with on_commit():
        publish(bakeoff)
    correct_the_gold(corpus, on_commit)
    for language in ("zh-CN", "zh-TW"):
        labels = set(history(client_for(organiser), run, language).values())
        assert len(labels) == 2
        assert not any(re.search("[a-z]{3}", label) for label in labels), labels
