"""The result of scoring a run: raw counts, the figures derived from them, and a signature."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Signature:
    """Everything that produced a score, so that the number can be reproduced (like sacrebleu)."""

    scorer_version: str
    gold_checksum: str
    dictionary_checksum: str
    options: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "scorer_version": self.scorer_version,
            "gold_checksum": self.gold_checksum,
            "dictionary_checksum": self.dictionary_checksum,
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Signature:
        return cls(
            scorer_version=data["scorer_version"],
            gold_checksum=data["gold_checksum"],
            dictionary_checksum=data["dictionary_checksum"],
            options=tuple(sorted(dict(data.get("options", {})).items())),
        )

    def __str__(self) -> str:
        parts = [
            f"scorer:{self.scorer_version}",
            f"gold:{_short(self.gold_checksum)}",
            f"dict:{_short(self.dictionary_checksum)}",
        ]
        parts += [f"{key}:{value}" for key, value in self.options]
        return "|".join(parts)


def _short(checksum: str) -> str:
    algorithm, _, digest = checksum.partition(":")
    return f"{algorithm}.{digest[:12]}" if digest else checksum


def ratio(numerator: int, denominator: int) -> float | None:
    """numerator / denominator, or None where the denominator is 0 (shown as "--")."""
    return numerator / denominator if denominator else None


def recall_as_perl(correct: int, total: int) -> float | None:
    """1 - missed / total, or None where total is 0 (shown as "--")."""
    return 1 - (total - correct) / total if total else None


def harmonic_mean(p: float, r: float) -> float:
    """F = 2PR / (P + R), 0 when P + R = 0; the same operations in the same order as the Perl
    scorer, so the last bit agrees too."""
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


class PrecisionRecall:
    """R = c / N, P = c / N' and F, for any result with ``true_words`` (N), ``test_words`` (N')
    and ``correct`` (c); 0 where a denominator is 0."""

    true_words: int
    test_words: int
    correct: int

    @property
    def recall(self) -> float:
        return self.correct / self.true_words if self.true_words else 0.0

    @property
    def precision(self) -> float:
        return self.correct / self.test_words if self.test_words else 0.0

    @property
    def f(self) -> float:
        return harmonic_mean(self.precision, self.recall)


class WordFigures(PrecisionRecall):
    """The figures of docs/measures/scoring.md from raw counts, for a result that also has
    ``oov_words`` and ``correct_oov``."""

    oov_words: int
    correct_oov: int

    @property
    def iv_words(self) -> int:
        return self.true_words - self.oov_words

    @property
    def correct_iv(self) -> int:
        return self.correct - self.correct_oov

    @property
    def oov_rate(self) -> float:
        return self.oov_words / self.true_words if self.true_words else 0.0

    # As the Perl scorer computes them, 1 - missed / total: the same number as correct / total in
    # exact arithmetic, but not always in floating point, where the last bit can move a rounding.
    @property
    def oov_recall(self) -> float | None:
        return recall_as_perl(self.correct_oov, self.oov_words)

    @property
    def iv_recall(self) -> float | None:
        return recall_as_perl(self.correct_iv, self.iv_words)

    def figures(self) -> dict[str, float | None]:
        return {
            "recall": self.recall,
            "precision": self.precision,
            "f": self.f,
            "oov_rate": self.oov_rate,
            "oov_recall": self.oov_recall,
            "iv_recall": self.iv_recall,
        }

    def counts(self) -> dict[str, int]:
        return {
            "true_words": self.true_words,
            "test_words": self.test_words,
            "correct": self.correct,
            "oov_words": self.oov_words,
            "correct_oov": self.correct_oov,
            "iv_words": self.iv_words,
            "correct_iv": self.correct_iv,
        }


@dataclass(frozen=True)
class Score(WordFigures):
    """Word scores of one run against one gold standard (docs/measures/scoring.md), micro-averaged
    over lines.

    ``insertions``, ``deletions`` and ``substitutions`` count the unmatched run and gold words of
    each stretch between two correct words, paired as ``diff -y`` pairs them (the Perl scorer's
    ``TOTAL INSERTIONS`` and so on). ``aligned_lines`` lists the 1-based lines whose characters
    differed from gold's and were aligned character by character.
    """

    true_words: int
    test_words: int
    correct: int
    oov_words: int
    correct_oov: int
    insertions: int
    deletions: int
    substitutions: int
    signature: Signature
    aligned_lines: tuple[int, ...] = field(default=())

    @property
    def changes(self) -> int:
        return self.insertions + self.deletions + self.substitutions

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict: every figure, every raw count, and the signature."""
        return {
            **self.figures(),
            **self.counts(),
            "insertions": self.insertions,
            "deletions": self.deletions,
            "substitutions": self.substitutions,
            "aligned_lines": list(self.aligned_lines),
            "signature": self.signature.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Score:
        return cls(
            true_words=int(data["true_words"]),
            test_words=int(data["test_words"]),
            correct=int(data["correct"]),
            oov_words=int(data["oov_words"]),
            correct_oov=int(data["correct_oov"]),
            insertions=int(data.get("insertions", 0)),
            deletions=int(data.get("deletions", 0)),
            substitutions=int(data.get("substitutions", 0)),
            signature=Signature.from_dict(data["signature"]),
            aligned_lines=tuple(int(line) for line in data.get("aligned_lines", ())),
        )

    def summary_text(self, run_name: str = "run") -> str:
        """The SIGHAN scorer's summary block, with its labels, and its ``###`` line."""
        recall, precision, f = (_fixed3(x) for x in (self.recall, self.precision, self.f))
        oov_rate = _fixed3(self.oov_rate)
        oov_recall, iv_recall = _fixed3(self.oov_recall), _fixed3(self.iv_recall)
        rows = [
            "=== SUMMARY:",
            f"=== TOTAL INSERTIONS:\t{self.insertions}",
            f"=== TOTAL DELETIONS:\t{self.deletions}",
            f"=== TOTAL SUBSTITUTIONS:\t{self.substitutions}",
            f"=== TOTAL NCHANGE:\t{self.changes}",
            f"=== TOTAL TRUE WORD COUNT:\t{self.true_words}",
            f"=== TOTAL TEST WORD COUNT:\t{self.test_words}",
            f"=== TOTAL TRUE WORDS RECALL:\t{recall}",
            f"=== TOTAL TEST WORDS PRECISION:\t{precision}",
            f"=== F MEASURE:\t{f}",
            f"=== OOV Rate:\t{oov_rate}",
            f"=== OOV Recall Rate:\t{oov_recall}",
            f"=== IV Recall Rate:\t{iv_recall}",
            "\t".join(
                [
                    "###",
                    run_name,
                    *(str(n) for n in (self.insertions, self.deletions, self.substitutions)),
                    str(self.changes),
                    str(self.true_words),
                    str(self.test_words),
                    recall,
                    precision,
                    f,
                    oov_rate,
                    oov_recall,
                    iv_recall,
                ]
            ),
        ]
        return "\n".join(rows) + "\n"


def _fixed3(value: float | None) -> str:
    return "--" if value is None else f"{value:.3f}"
