"""Word scores per domain, from a side file with one domain label per test line."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from scoring import build_gold_index
from scoring.cli import main
from scoring.core.dictionary import Dictionary
from scoring.core.errors import CorpusFormatError
from scoring.core.score import score_run_details
from scoring.fine.domains import (
    DomainScore,
    domain_lines,
    domain_scores,
    labels_checksum,
    read_domains,
)

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


def test_intervals_per_domain_by_hand() -> None:
    gold = build_gold_index(GOLD, Dictionary.from_words(["结婚", "的", "他"]))
    news, weibo = domain_scores(score_run_details(RUN, gold), ("news", "weibo", "news"))
    # news: c = 3 of N = 8, N' = 6: R = 0.375, P = 0.5, F = 3/7
    assert (news.recall, news.precision) == (0.375, 0.5)
    assert news.f == pytest.approx(3 / 7)
    assert news.cr == pytest.approx(2 * (0.375 * 0.625 / 8) ** 0.5)  # 0.3423
    assert news.cp == pytest.approx(2 * (0.5 * 0.5 / 8) ** 0.5)  # 0.3536, n = N as SIGHAN
    assert weibo.cr == 0.0 and weibo.cp == 0.0  # R = P = 1
    data = news.to_dict()
    assert (data["lines"], data["correct_oov"], round(data["cr"], 4)) == (2, 0, 0.3423)
    assert DomainScore.from_dict(data) == news


def test_a_domain_file_of_the_wrong_length_names_both_counts() -> None:
    with pytest.raises(CorpusFormatError) as short:
        read_domains("a\nb\n", 3)
    assert str(short.value) == (
        "the domain file has 2 lines, the test set 3 (test line 3 and after have no label)"
    )
    with pytest.raises(CorpusFormatError, match="line 3 and after have no test line"):
        read_domains("a\nb\nc\nd\n", 2)


def test_the_command_line_scores_per_domain(tmp_path: Path) -> None:
    files = {"gold": GOLD, "run": RUN, "words": "结婚\n的\n他\n", "labels": "news\nweibo\nnews\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    args = ["score", "--dict", str(tmp_path / "words"), "--domains", str(tmp_path / "labels")]
    args += [str(tmp_path / "gold"), str(tmp_path / "run"), "--format", "json"]
    out = io.BytesIO()
    with redirect_stdout(io.TextIOWrapper(out, encoding="utf-8")) as wrapper:
        assert main(args) == 0
        wrapper.flush()
    document = json.loads(out.getvalue())
    assert [(d["domain"], d["lines"], d["correct"]) for d in document["domains"]] == [
        ("news", 2, 3),
        ("weibo", 1, 2),
    ]
    assert document["domain_labels"] == labels_checksum(["news", "weibo", "news"])
    (tmp_path / "labels").write_text("news\nweibo\n", encoding="utf-8")
    assert main(args) == 1
