"""The organiser's corpus page puts first what a corpus needs before sites see it (its tracks and
files), and the post-bakeoff buttons only where they can act: after publication."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from bakeoff.models import Bakeoff, Corpus, Site, Track
from tests.factories import make_corpus, publish
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db

PAGE = "/bakeoffs/b2026/corpora/PK/"
OPEN_BUTTON = "for post-bakeoff runs</button>"


def page(client_for: ClientFor, user: User, path: str = PAGE) -> str:
    answer = client_for(user).get(path)
    assert answer.status_code == 200
    text = answer.content.decode()
    return text[text.index("<main>") :]


@pytest.fixture
def draft(bakeoff: Bakeoff) -> Bakeoff:
    Bakeoff.objects.filter(pk=bakeoff.pk).update(opened_at=None)
    bakeoff.refresh_from_db()
    assert bakeoff.is_draft
    return bakeoff


def test_a_draft_corpus_page_leads_with_what_the_corpus_needs(
    client_for: ClientFor, organiser: User, draft: Bakeoff, corpus: Corpus, closed: Track
) -> None:
    text = page(client_for, organiser)
    prepare = text.index('id="prepare"')
    for action in ("tracks/new/", "gold/new/", "development/", "domains/", "agreement/edit/"):
        assert prepare < text.index(f"/bakeoffs/b2026/corpora/PK/{action}") < text.index("<h2>")
    assert prepare < text.index("<h2>")  # the first section of the page
    assert "Upload a new gold" in text and "Upload a corrected gold" not in text
    assert OPEN_BUTTON not in text and "post-bakeoff" not in text


def test_a_draft_corpus_without_a_track_says_to_add_one(
    client_for: ClientFor, organiser: User, draft: Bakeoff
) -> None:
    make_corpus(draft, abbreviation="MSR", conditions=())
    text = page(client_for, organiser, "/bakeoffs/b2026/corpora/MSR/")
    assert "This corpus has no track yet" in text
    assert text.index("This corpus has no track yet") < text.index("corpora/MSR/tracks/new/")


def test_before_publication_the_post_bakeoff_buttons_are_not_offered(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus, closed: Track
) -> None:
    text = page(client_for, organiser)
    assert OPEN_BUTTON not in text
    assert "can be opened for post-bakeoff runs once the results are published" in text
    assert "Upload a corrected gold" in text


def test_after_publication_the_post_bakeoff_buttons_follow_the_preparation(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus, closed: Track
) -> None:
    publish(bakeoff)
    text = page(client_for, organiser)
    assert "Open PKc for post-bakeoff runs</button>" in text
    assert text.index('id="prepare"') < text.index(OPEN_BUTTON)


def test_a_participant_sees_no_preparation(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    text = page(client_for, participant)
    assert 'id="prepare"' not in text and "tracks/new/" not in text


@pytest.mark.parametrize(
    ("language", "heading"), [("zh-hans", "准备语料库"), ("zh-hant", "準備語料庫")]
)
def test_the_preparation_is_in_the_readers_language(
    client_for: ClientFor,
    organiser: User,
    draft: Bakeoff,
    corpus: Corpus,
    language: str,
    heading: str,
) -> None:
    client = client_for(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    text = client.get(PAGE).content.decode()
    assert f'<h2 id="prepare">{heading}</h2>' in text
