"""An erratum whose new gold has no committee drops the balanced F (F_b) from the figures: the
organiser's erratum page says so, and suggests building a committee on the new gold, with a link to
the committee form of the corpus (docs/measures/balanced-f.md).

The world (a rated run, published) is built once for the module; the case without a committee
before the erratum: test_erratum_hint_alone.py."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Submission
from leaderboard.services import do_publish_erratum
from psychometric.models import Committee, CommitteeStatus
from tests.factories import (
    GOLD,
    WORKED_RUN,
    close_submissions,
    make_site,
    publish,
    upload,
)
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .factories import Scored, build, built_as_the_package_tests

pytestmark = pytest.mark.django_db

ERRATUM = "/bakeoffs/b2026/results/erratum/"
CORRECTED_GOLD = GOLD.replace("今天 天气", "今天天气")


@dataclass
class Built(Scored):
    """The world as built once for the module: what the shared fixtures and ``rated`` gave."""

    rated: Submission


def build_world(scored: Scored) -> Built:
    """The participant's site, and ``rated``: a run with its F_b, published."""
    make_site(scored.bakeoff, scored.participant, [scored.closed])
    rated = upload(scored.participant, scored.closed, WORKED_RUN, captured_on_commit)
    build(scored.corpus, captured_on_commit)
    close_submissions(scored.bakeoff)
    publish(scored.bakeoff)
    return Built(**vars(scored), rated=rated)


# Every test here starts from the published run and changes the gold, the committees or the
# versions inside its own transaction, which is rolled back (tests/module_world.py).
built, mine = module_world("erratum_hint", lambda: built_as_the_package_tests(build_world))
# The shared fixtures, of the world built once (theirs would make another bakeoff b2026).
organiser, participant, bakeoff, corpus, rated = map(
    taken_from_world, ("organiser", "participant", "bakeoff", "corpus", "rated")
)


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
