"""The result of scoring a run: raw counts, the figures derived from them, and a signature."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:  # numpy is imported where f_scores needs it: a Score alone does not
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Signature:
    """Everything that produced a figure, so that the number can be reproduced (like sacrebleu).

    Every measure's signature names the library version, the gold standard and the dictionary.
    The word scores add free-form ``options``; a measure with settings of its own subclasses this
    class and declares them as fields (``scoring.BucketSignature``, the balanced F's
    ``BalancedSignature``), which ``to_dict``, ``from_dict`` and ``str`` then list after the
    common three, in the order declared. ``options`` are listed last: always for the word scores
    (a signature with no fields of its own), for other measures only when there are some.

    >>> signature = Signature("1.0.0", "sha256:ab12", "sha256:cd34", options=(("match", "span"),))
    >>> signature.to_dict()
    {'scorer_version': '1.0.0', 'gold_checksum': 'sha256:ab12', \
'dictionary_checksum': 'sha256:cd34', 'options': {'match': 'span'}}
    >>> str(signature)
    'scorer:1.0.0|gold:sha256.ab12|dict:sha256.cd34|match:span'
    >>> Signature.from_dict(signature.to_dict()) == signature
    True
    """

    scorer_version: str
    gold_checksum: str
    dictionary_checksum: str
    # Keyword-only, so that a measure's own fields follow the common three positionally.
    options: tuple[tuple[str, str], ...] = field(default=(), kw_only=True)

    def measure_fields(self) -> dict[str, Any]:
        """The fields a measure added to the common three, in the order it declared them."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in _COMMON_FIELDS and f.name != "options"
        }

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "scorer_version": self.scorer_version,
            "gold_checksum": self.gold_checksum,
            "dictionary_checksum": self.dictionary_checksum,
        }
        own = self.measure_fields()
        data.update(own)
        if self.options or not own:
            data["options"] = dict(self.options)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The signature ``to_dict`` gave; options are kept sorted by name."""
        known = {f.name for f in fields(cls)} - {"options"}
        return cls(
            **{name: value for name, value in data.items() if name in known},
            options=tuple(sorted(dict(data.get("options", {})).items())),
        )

    def __str__(self) -> str:
        parts = [
            f"scorer:{self.scorer_version}",
            f"gold:{_short(self.gold_checksum)}",
            f"dict:{_short(self.dictionary_checksum)}",
        ]
        parts += [f"{key}:{value}" for key, value in self.measure_fields().items()]
        parts += [f"{key}:{value}" for key, value in self.options]
        return "|".join(parts)


_COMMON_FIELDS = frozenset({"scorer_version", "gold_checksum", "dictionary_checksum"})


def _short(checksum: str) -> str:
    algorithm, _, digest = checksum.partition(":")
    return f"{algorithm}.{digest[:12]}" if digest else checksum


# -- precision, recall and F: the one definition ---------------------------------------------------


def ratio(numerator: int, denominator: int) -> float | None:
    """numerator / denominator, or None where the denominator is 0 (shown as "--")."""
    return numerator / denominator if denominator else None


def recall_as_perl(correct: int, total: int) -> float | None:
    """1 - missed / total, or None where total is 0 (shown as "--")."""
    return 1 - (total - correct) / total if total else None


def harmonic_mean(p: float, r: float) -> float:
    """F = 2PR / (P + R), 0 when P + R = 0; the same operations in the same order as the Perl
    scorer, so the last bit agrees too.

    >>> harmonic_mean(0.5, 1.0)
    0.6666666666666666
    >>> harmonic_mean(0.0, 0.0)
    0.0
    """
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def precision_recall_f(
    correct: int, true_words: int, test_words: int
) -> tuple[float, float, float]:
    """P = c / N', R = c / N and their harmonic mean F, from ``correct`` (c) words among
    ``true_words`` (N, gold) and ``test_words`` (N', run); P or R is 0 where its denominator is.

    >>> precision_recall_f(3, 4, 6)
    (0.5, 0.75, 0.6)
    >>> precision_recall_f(0, 0, 0)
    (0.0, 0.0, 0.0)
    """
    precision = correct / test_words if test_words else 0.0
    recall = correct / true_words if true_words else 0.0
    return precision, recall, harmonic_mean(precision, recall)


def exact_f(correct: int, true_words: int, test_words: int) -> Fraction:
    """F = 2c / (N + N') as an exact fraction, so that equal F is a tie and nothing else is.

    >>> exact_f(3, 4, 6)
    Fraction(3, 5)
    """
    total = true_words + test_words
    return Fraction(2 * correct, total) if total else Fraction(0)


def f_scores(gold: npt.ArrayLike, run: npt.ArrayLike, correct: npt.ArrayLike) -> FloatArray:
    """F = 2c / (N + N') elementwise (the harmonic mean of P and R), for arrays of counts such as
    a bootstrap's resamples; NaN where N + N' = 0.

    >>> f_scores([4, 0], [6, 0], [3, 0])
    array([0.6, nan])
    """
    import numpy as np

    g, r, c = (np.asarray(x, np.float64) for x in (gold, run, correct))
    total = g + r
    f: FloatArray = np.divide(2 * c, total, out=np.full(total.shape, np.nan), where=total > 0)
    return f


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

    @property
    def exact_f(self) -> Fraction:
        """F as an exact fraction, for ranking: equal F is a tie and nothing else is."""
        return exact_f(self.correct, self.true_words, self.test_words)


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

    >>> from scoring import Dictionary, score_texts
    >>> score = score_texts("结婚 的 和尚\\n", "结婚 的和尚\\n", Dictionary.from_words([]))
    >>> score.true_words, score.test_words, score.correct, round(score.f, 3)
    (3, 2, 1, 0.4)
    >>> Score.from_dict(score.to_dict()) == score
    True
    >>> score.summary_text("run").splitlines()[-1].split("\\t")
    ['###', 'run', '0', '1', '1', '2', '3', '2', '0.333', '0.500', '0.400', '1.000', '0.333', '--']
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
