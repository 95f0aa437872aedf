"""An erratum whose new gold has no committee drops the balanced F (F_b) from the figures: the
organiser's erratum page says so, and suggests building a committee on the new gold, with a link to
the committee form of the corpus (docs/measures/balanced-f.md)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Site, Submission, Track
from leaderboard.services import do_publish_erratum
from psychometric.models import Committee, CommitteeStatus
from tests.factories import GOLD, WORKED_RUN, close_submissions, publish, upload
from tests.hints import ClientFor, OnCommit

from .factories import build

pytestmark = pytest.mark.django_db

ERRATUM = "/bakeoffs/b2026/results/erratum/"
CORRECTED_GOLD = GOLD.replace("今天 天气", "今天天气")


@pytest.fixture
def rated(
    bakeoff: Bakeoff,
    corpus: Corpus,
    closed: Track,
    site: Site,
    participant: User,
    on_commit: OnCommit,
) -> Submission:
    """A run with its F_b, published."""
    run = upload(participant, closed, WORKED_RUN, on_commit)
    build(corpus, on_commit)
    close_submissions(bakeoff)
    publish(bakeoff)
    return run


def correct_the_gold(corpus: Corpus, on_commit: OnCommit) -> None:
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED_GOLD.encode(), note="corrected")


def page(client: Client) -> str:
    answer = client.get(ERRATUM)
    assert answer.status_code == 200
    return answer.content.decode()


def hint(text: str) -> str:
    """The committee hints of the erratum page (empty when there is none)."""
    return "".join(
        part.split("</p>")[0] for part in text.split('class="notice committee-hint">')[1:]
    )


def test_an_erratum_that_drops_f_b_suggests_a_committee_on_the_new_gold(
    client_for: ClientFor, organiser: User, rated: Submission, corpus: Corpus, on_commit: OnCommit
) -> None:
    correct_the_gold(corpus, on_commit)
    text = page(client_for(organiser))
    assert "balanced F" in text and "→ --" in text  # the change it explains
    shown = hint(text)
    assert "The new figures of PKc, PKo have no balanced F" in shown
    assert "no committee rates gold version 2 yet" in shown
    assert '<a href="/bakeoffs/b2026/corpora/PK/#committee">' in shown
    # the link leads to the committee form
    corpus_page = client_for(organiser).get("/bakeoffs/b2026/corpora/PK/").content.decode()
    form = corpus_page[corpus_page.index('id="committee"') :]
    assert 'action="/bakeoffs/b2026/corpora/PK/committees/"' in form


def test_a_committee_being_built_on_the_new_gold_is_named_instead(
    client_for: ClientFor, organiser: User, rated: Submission, corpus: Corpus, on_commit: OnCommit
) -> None:
    correct_the_gold(corpus, on_commit)
    gold = corpus.current_gold()
    assert gold is not None and gold.number == 2
    Committee.objects.create(
        corpus=corpus,
        gold_version=gold,
        number=2,
        kind="crf",
        k=16,
        status=CommitteeStatus.RUNNING,
        members_done=5,
        requested_at=timezone.now(),
    )
    shown = hint(page(client_for(organiser)))
    assert "One is being built (5 of 16 members done)" in shown
    assert "#committee" not in shown


def test_once_the_new_gold_has_its_committee_nothing_is_suggested(
    client_for: ClientFor, organiser: User, rated: Submission, corpus: Corpus, on_commit: OnCommit
) -> None:
    correct_the_gold(corpus, on_commit)
    build(corpus, on_commit)
    text = page(client_for(organiser))
    assert "gold version 1 → 2" in text  # an erratum to publish, with its F_b
    assert hint(text) == ""


def test_an_erratum_without_a_committee_before_suggests_nothing(
    client_for: ClientFor,
    organiser: User,
    bakeoff: Bakeoff,
    corpus: Corpus,
    closed: Track,
    site: Site,
    participant: User,
    on_commit: OnCommit,
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    close_submissions(bakeoff)
    publish(bakeoff)
    correct_the_gold(corpus, on_commit)  # no F_b before, none after: nothing dropped
    text = page(client_for(organiser))
    assert "gold version 1 → 2" in text and hint(text) == ""


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh-hans", "PKc、PKo 的新数值没有平衡 F 值"),
        ("zh-hant", "PKc、PKo 的新數值沒有平衡 F 值"),
    ],
)
def test_the_hint_is_in_the_readers_language(
    client_for: ClientFor,
    organiser: User,
    rated: Submission,
    corpus: Corpus,
    on_commit: OnCommit,
    language: str,
    words: str,
) -> None:
    correct_the_gold(corpus, on_commit)
    client = client_for(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    shown = hint(page(client))
    assert words in shown and "committee" not in shown.replace("#committee", "")


def test_the_published_version_page_shows_no_hint(
    client_for: ClientFor,
    organiser: User,
    participant: User,
    rated: Submission,
    bakeoff: Bakeoff,
    corpus: Corpus,
    on_commit: OnCommit,
) -> None:
    correct_the_gold(corpus, on_commit)
    with on_commit():
        version = do_publish_erratum(bakeoff, note="corrected", by=organiser)
    for reader in (organiser, participant):
        text = client_for(reader).get(f"/bakeoffs/b2026/results/v{version.number}/")
        assert text.status_code == 200
        assert "committee-hint" not in text.content.decode()
