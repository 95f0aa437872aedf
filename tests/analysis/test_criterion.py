"""The Ψ matrix across a bakeoff's corpora (RethinkCWS Table 5) on the results summary."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from analysis.models import CriterionDiscrepancy
from bakeoff.models import Bakeoff, Corpus, Site
from tests.factories import make_corpus, publish
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

RESULTS = "/bakeoffs/b2026/results/"
OTHER_GOLD = "和尚 未 结婚\n我们 在 北京\n"


@pytest.fixture
def word_list_corpus(bakeoff: Bakeoff, corpus: Corpus, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff, abbreviation="WL", gold=OTHER_GOLD, test=None)


def psi(training: Corpus, test: Corpus) -> float:
    return CriterionDiscrepancy.objects.get(training_corpus=training, test_corpus=test).value


def test_psi_is_stored_for_every_corpus_with_a_training_text(
    corpus: Corpus, word_list_corpus: Corpus
) -> None:
    # 和 and 尚未 1/2 (also inside 和尚 未), 工作 and 天气 0 (never seen), the other ten 1.
    assert psi(corpus, corpus) == pytest.approx(11 / 14)
    # 和尚 1/2, 未 1/2, 结婚 1, 我们 1, 在 1, 北京 1
    assert psi(corpus, word_list_corpus) == pytest.approx(5 / 6)
    assert not CriterionDiscrepancy.objects.filter(training_corpus=word_list_corpus).exists()


def test_the_matrix_shows_a_dash_and_the_reason_without_training_text(
    client_for: ClientFor, organiser: User, corpus: Corpus, word_list_corpus: Corpus
) -> None:
    page = client_for(organiser).get(RESULTS).content.decode()
    assert "Criterion discrepancy Ψ between the corpora" in page
    assert '<td class="num">0.786</td>' in page and '<td class="num">0.833</td>' in page
    assert page.count('<td class="num" title="no training text') == 2  # the WL row
    assert "WL: — no training text (only a word list)" in page


def test_psi_is_computed_once_per_training_text_and_gold(
    corpus: Corpus, word_list_corpus: Corpus, bakeoff: Bakeoff
) -> None:
    from analysis.services import do_update_criterion

    assert do_update_criterion(bakeoff) == 0


def test_participants_see_the_matrix_once_published(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    assert "Ψ" not in client_for(participant).get(RESULTS).content.decode()
    publish(bakeoff)
    assert "Criterion discrepancy Ψ" in client_for(participant).get(RESULTS).content.decode()
