"""A real multi-domain test set: the four SIGHAN 2005 test sets (icwb2: as, cityu, msr, pku) one
after the other, each line labelled with the corpus it comes from.

The gold is the four golds' lines, the test text the four test texts' lines (as the organisers
released them: msr's 16 and as's one line that differ from their gold stay as they are), the word
list the union of the four training word lists, in one encoding (UTF-8, no BOM, LF). Runs are made
the way the Perl parity tests make them (``tests.scoring.runs``), so nothing here uses the library
under test but ``split_lines`` to read the files as the Perl scorer does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scoring import split_lines
from tests.scoring.runs import backward_maxmatch_run, perturbed_run, word_list

ICWB2 = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "icwb2"

#: domain -> the gold file's stem (as's is named differently)
GOLDS = {
    "as": "as_testing_gold",
    "cityu": "cityu_test_gold",
    "msr": "msr_test_gold",
    "pku": "pku_test_gold",
}


def missing() -> str | None:
    """Why the set cannot be built here, or None."""
    for domain, stem in GOLDS.items():
        for path in (
            ICWB2 / "gold" / f"{stem}.utf8",
            ICWB2 / "testing" / f"{domain}_test.utf8",
            ICWB2 / "gold" / f"{domain}_training_words.utf8",
        ):
            if not path.is_file():
                return f"the SIGHAN 2005 data is not at {path} (../shared beside the repository)"
    return None


@dataclass(frozen=True)
class MultiDomainSet:
    gold: str
    test: str
    words: str
    labels: str
    #: the labels, one per line
    domains: tuple[str, ...]
    #: two runs: the gold perturbed (10 % of the words cut or joined, seed 16), and backward
    #: maximum matching with the word list
    perturbed: str
    backward: str

    def lines_of(self, text: str, domain: str) -> str:
        """The lines of ``text`` labelled ``domain``, as a file of their own."""
        return "".join(
            f"{line}\n"
            for line, label in zip(split_lines(text), self.domains, strict=True)
            if label == domain
        )


def _file(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


@lru_cache(maxsize=1)
def icwb2_domains() -> MultiDomainSet:
    gold: list[str] = []
    test: list[str] = []
    domains: list[str] = []
    words: dict[str, None] = {}
    for domain, stem in GOLDS.items():
        gold_lines = split_lines((ICWB2 / "gold" / f"{stem}.utf8").read_text("utf-8-sig"))
        test_lines = split_lines((ICWB2 / "testing" / f"{domain}_test.utf8").read_text("utf-8-sig"))
        assert len(gold_lines) == len(test_lines), domain
        gold += gold_lines
        test += test_lines
        domains += [domain] * len(gold_lines)
        words.update(dict.fromkeys(word_list(ICWB2 / "gold" / f"{domain}_training_words.utf8")))
    gold_text, test_text = _file(gold), _file(test)
    return MultiDomainSet(
        gold=gold_text,
        test=test_text,
        words=_file(list(words)),
        labels=_file(domains),
        domains=tuple(domains),
        perturbed=perturbed_run(gold_text, test_text, seed=16, rate=0.1),
        backward=backward_maxmatch_run(test_text, words),
    )
