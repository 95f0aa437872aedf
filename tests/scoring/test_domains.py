"""Word scores per domain, from a side file with one domain label per test line."""

from __future__ import annotations

import pytest

from scoring import build_gold_index
from scoring.core.dictionary import Dictionary
from scoring.core.errors import CorpusFormatError
from scoring.core.score import score_run_details
from scoring.fine.domains import domain_lines, domain_scores, read_domains

GOLD = "结婚 的 和 尚未 结婚 的\n他 说\n好 的\n"
RUN = "结婚 的 和尚 未结婚 的\n他 说\n好的\n"


def test_scores_per_domain_sum_to_the_run() -> None:
    gold = build_gold_index(GOLD, Dictionary.from_words(["结婚", "的", "他"]))
    run = score_run_details(RUN, gold)
    news, weibo = domain_scores(run, read_domains("news\nweibo\nnews\n", 3))
    assert (news.domain, news.lines, news.true_words, news.test_words, news.correct) == (
        "news",
        2,
        8,
        6,
        3,
    )
    assert (weibo.true_words, weibo.test_words, weibo.correct) == (2, 2, 2)
    assert weibo.f == 1.0 and weibo.oov_words == 1 and weibo.oov_recall == 1.0
    assert news.true_words + weibo.true_words == run.score.true_words
    assert news.correct_oov + weibo.correct_oov == run.score.correct_oov


def test_domain_files_must_label_every_line() -> None:
    with pytest.raises(CorpusFormatError, match="2 line"):
        read_domains("a\nb\n", 3)
    with pytest.raises(CorpusFormatError, match="line 2"):
        read_domains("a\n \nb\n", 3)
    assert [m.tolist() for m in domain_lines(["a", "b", "a"]).values()] == [
        [True, False, True],
        [False, True, False],
    ]
