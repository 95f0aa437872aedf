"""Figures per domain: where a corpus labels each test line with a domain (an optional side file,
one label a line, as multi-domain corpora such as MuCPAD have), every figure is also given per
domain by restricting the counts to that domain's lines.

Word scores per domain are here; bucket analyses and the bootstrap take the same line masks
(``lines=`` of :func:`scoring.analyse_runs` and :func:`scoring.paired_bootstrap`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import CorpusFormatError
from ..core.result import WordFigures
from ..core.score import ScoredRun
from ..core.segmentation import Mask
from ..core.text import split_lines


def read_domains(text: str, line_count: int) -> tuple[str, ...]:
    """The domain label of each test line, from a side file with one label a line.

    >>> read_domains("news\\nnews\\nblog\\n", 3)
    ('news', 'news', 'blog')
    """
    labels = [line.strip() for line in split_lines(text)]
    if len(labels) != line_count:
        raise CorpusFormatError(
            f"the domain file has {len(labels)} line(s), the test set {line_count}"
        )
    for number, label in enumerate(labels, 1):
        if not label:
            raise CorpusFormatError(f"line {number} of the domain file has no label")
    return tuple(labels)


def domain_lines(domains: Sequence[str]) -> dict[str, Mask]:
    """A mask of the lines of each domain, domains in order of first appearance."""
    labels = np.asarray(domains, dtype=object)
    return {domain: labels == domain for domain in dict.fromkeys(domains)}


@dataclass(frozen=True)
class DomainScore(WordFigures):
    """Raw word counts of a run on the lines of one domain, and the figures from them."""

    domain: str
    lines: int
    true_words: int
    test_words: int
    correct: int
    oov_words: int
    correct_oov: int

    def to_dict(self) -> dict[str, Any]:
        return {"domain": self.domain, "lines": self.lines, **self.counts(), **self.figures()}


def domain_scores(run: ScoredRun, domains: Sequence[str]) -> tuple[DomainScore, ...]:
    """The word scores of a run per domain; they sum to the run's counts.

    >>> from scoring import Dictionary, build_gold_index, score_run_details
    >>> gold = build_gold_index("结婚 的 和尚\\n我 爱 北京\\n", Dictionary.from_words([]))
    >>> run = score_run_details("结婚 的和尚\\n我 爱 北京\\n", gold)
    >>> [(d.domain, d.lines, round(d.f, 3)) for d in domain_scores(run, ("wedding", "city"))]
    [('wedding', 1, 0.4), ('city', 1, 1.0)]
    """
    gold = run.gold
    if len(domains) != gold.line_count:
        raise CorpusFormatError(f"{len(domains)} domain label(s) for {gold.line_count} lines")
    gold_words, run_words, correct = run.line_counts()
    gold_line = np.searchsorted(gold.line_ends(), gold.word_starts)
    lines = gold.line_count
    oov = np.bincount(gold_line[gold.oov], minlength=lines)
    correct_oov = np.bincount(gold_line[gold.oov & run.gold_correct], minlength=lines)
    return tuple(
        DomainScore(
            domain=domain,
            lines=int(np.count_nonzero(mask)),
            true_words=int(gold_words[mask].sum()),
            test_words=int(run_words[mask].sum()),
            correct=int(correct[mask].sum()),
            oov_words=int(oov[mask].sum()),
            correct_oov=int(correct_oov[mask].sum()),
        )
        for domain, mask in domain_lines(domains).items()
    )
