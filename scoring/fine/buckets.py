"""Attribute buckets (docs/measures/buckets.md): the scheme, fixed once per track, and per-bucket P,
R, F of a run.

The scheme's boundaries come from the gold words of the track, so every run is cut alike:

* wLen: {1}, {2}, {3}, [4, inf).
* wCon, cCon: {0}, (0, 0.5], (0.5, 1), {1}.
* wFre, cFre, oDen: {0}, then tertiles of the positive gold values.
* sLen: quartiles of the gold values.

A quantile is the smallest value with at least that share of the (sorted) gold values at or below
it, so boundaries are values that occur; equal boundaries merge, never leaving an interval like
``(3, 3]``. Buckets tile the line without gaps, so a run value outside all of them is below the
first (it goes to the first) or above the last (it goes to the last): the nearest bucket.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..core.result import PrecisionRecall, Score, Signature, f_scores, harmonic_mean, ratio
from ..core.score import ScoredRun
from ..core.segmentation import Mask
from ..core.version import __version__
from .attributes import TrackAttributes, WordValues
from .bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED, Resampling, percentile_intervals
from .interpreteval import scheme_from_gold
from .ranks import spearman
from .schemes import ATTRIBUTES, AttributeScheme, BucketScheme

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

# -- per-bucket scores -----------------------------------------------------------------------------


@dataclass(frozen=True)
class BucketScore:
    """Raw counts of one bucket, and the bootstrap interval of its F (None when never defined).

    A run word's bucket is set by its own values; a correct run word has its gold word's values,
    so ``correct_run`` equals ``correct_gold``. R is None without gold words, P without run words,
    F without either (otherwise the harmonic mean, a missing side counting 0).
    """

    label: str
    gold_words: int
    run_words: int
    correct_gold: int
    correct_run: int
    f_interval: tuple[float, float] | None = None

    @property
    def recall(self) -> float | None:
        return ratio(self.correct_gold, self.gold_words)

    @property
    def precision(self) -> float | None:
        return ratio(self.correct_run, self.run_words)

    @property
    def f(self) -> float | None:
        if not self.gold_words and not self.run_words:
            return None
        return harmonic_mean(self.precision or 0.0, self.recall or 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "gold_words": self.gold_words,
            "run_words": self.run_words,
            "correct_gold": self.correct_gold,
            "correct_run": self.correct_run,
            "precision": self.precision,
            "recall": self.recall,
            "f": self.f,
            "f_interval": list(self.f_interval) if self.f_interval else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BucketScore:
        """The bucket ``to_dict`` gave: its counts and interval (every figure follows from them).

        >>> bucket = BucketScore("wLen {1}", 4, 6, 3, 3, (0.4, 0.8))
        >>> bucket.to_dict()["f"]
        0.6
        >>> BucketScore.from_dict(bucket.to_dict()) == bucket
        True
        """
        interval = data["f_interval"]
        return cls(
            label=data["label"],
            gold_words=data["gold_words"],
            run_words=data["run_words"],
            correct_gold=data["correct_gold"],
            correct_run=data["correct_run"],
            f_interval=(interval[0], interval[1]) if interval else None,
        )


UNKNOWN: Literal["unknown"] = "unknown"


@dataclass(frozen=True)
class AttributeBuckets:
    """The buckets of one attribute for one run, with S^ρ and S^σ (docs/measures/buckets.md).

    S^ρ is Spearman's ρ between bucket order and bucket F, S^σ the (population) standard deviation
    of bucket F, both over the buckets whose F is defined; None where they are undefined (fewer
    than two such buckets, or a constant F for ρ).
    """

    attribute: str
    buckets: tuple[BucketScore, ...]
    # S^ρ as stored beside the buckets (``RunBuckets.to_dict``'s statistics), read back with
    # them: a track's profile reads every run's, and 300 runs would otherwise mean 2,100 rank
    # correlations again after each new score. ``UNKNOWN``: computed from the buckets.
    stored_spearman: float | Literal["unknown"] | None = field(
        default=UNKNOWN, compare=False, repr=False
    )

    @property
    def spearman(self) -> float | None:
        if self.stored_spearman != UNKNOWN:
            return self.stored_spearman
        f = self._defined_f()
        if len(f) < 2 or len(set(f.values())) < 2:
            return None
        rho = spearman(list(f), list(f.values()))
        return None if math.isnan(rho) else float(rho)

    @property
    def std(self) -> float | None:
        f = self._defined_f()
        return float(np.std(list(f.values()))) if len(f) >= 2 else None

    def _defined_f(self) -> dict[int, float]:
        return {i: b.f for i, b in enumerate(self.buckets) if b.f is not None}

    def to_dict(self) -> dict[str, Any]:
        return {
            "buckets": [bucket.to_dict() for bucket in self.buckets],
            "spearman": self.spearman,
            "std": self.std,
        }

    @classmethod
    def from_dict(
        cls,
        attribute: str,
        data: Mapping[str, Any],
        spearman: float | Literal["unknown"] | None = UNKNOWN,
    ) -> AttributeBuckets:
        """The buckets of ``attribute`` from their ``to_dict`` (S^σ follows from them, and S^ρ
        too unless ``spearman`` gives it as it was stored)."""
        return cls(attribute, tuple(BucketScore.from_dict(b) for b in data["buckets"]), spearman)


@dataclass(frozen=True)
class BucketSignature(Signature):
    """Everything that produced a bucket analysis, so that it can be reproduced: the common
    fields of every signature, then the training text, the bucket scheme and the resampling.

    >>> signature = BucketSignature("1.0.0", "sha256:g", "sha256:d", None, "s/1", "sha256:s", 10, 0)
    >>> list(signature.to_dict())[3:]
    ['training_checksum', 'scheme', 'scheme_checksum', 'samples', 'seed']
    >>> BucketSignature.from_dict(signature.to_dict()) == signature
    True
    """

    training_checksum: str | None
    scheme: str
    scheme_checksum: str
    samples: int
    seed: int


@dataclass(frozen=True)
class RunBuckets(PrecisionRecall):
    """The bucket analysis of one run: every available attribute's buckets, and what is missing.

    ``score`` is the run's score on the whole test set; ``true_words``, ``test_words`` and
    ``correct`` count the analysed sentences only (all of them unless restricted to a domain),
    and every attribute's buckets sum to them.
    """

    score: Score
    attributes: tuple[AttributeBuckets, ...]
    unavailable: tuple[tuple[str, str], ...]
    signature: BucketSignature
    true_words: int
    test_words: int
    correct: int

    def __getitem__(self, attribute: str) -> AttributeBuckets:
        for buckets in self.attributes:
            if buckets.attribute == attribute:
                return buckets
        raise KeyError(attribute)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable: ``attributes`` maps every attribute to its buckets (None when
        unavailable), ``statistics`` to its S^ρ and S^σ."""
        available = {a.attribute: a for a in self.attributes}
        return {
            "score": self.score.to_dict(),
            "analysed": {
                "true_words": self.true_words,
                "test_words": self.test_words,
                "correct": self.correct,
                "f": self.f,
            },
            "attributes": {
                name: [b.to_dict() for b in available[name].buckets] if name in available else None
                for name in ATTRIBUTES
            },
            "statistics": {
                name: {"spearman": a.spearman, "std": a.std} for name, a in available.items()
            },
            "unavailable": dict(self.unavailable),
            "signature": self.signature.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunBuckets:
        """The analysis ``to_dict`` gave, from its raw counts (every figure follows from them);
        attributes in the library's order, whatever order the mapping kept (PostgreSQL's jsonb
        keeps none)."""
        statistics = data.get("statistics") or {}
        attributes = tuple(
            AttributeBuckets.from_dict(
                name,
                {"buckets": buckets},
                statistics.get(name, {}).get("spearman", UNKNOWN),
            )
            for name in ATTRIBUTES
            if (buckets := data["attributes"].get(name)) is not None
        )
        unavailable = data["unavailable"]
        analysed = data["analysed"]
        return cls(
            score=Score.from_dict(data["score"]),
            attributes=attributes,
            unavailable=tuple(
                (name, unavailable[name]) for name in ATTRIBUTES if name in unavailable
            ),
            signature=BucketSignature.from_dict(data["signature"]),
            true_words=analysed["true_words"],
            test_words=analysed["test_words"],
            correct=analysed["correct"],
        )


@dataclass(frozen=True, eq=False)
class BucketedGold:
    """The gold standard of a track cut into buckets, ready for the bucket analyses of its runs:
    the gold words' attributes, the bucket scheme they fix and the bucket of every gold word."""

    attributes: TrackAttributes
    scheme: BucketScheme
    gold_buckets: Mapping[str, IntArray]

    @classmethod
    def prepare(
        cls, attributes: TrackAttributes, scheme: BucketScheme | None = None
    ) -> BucketedGold:
        values = attributes.gold_values
        if scheme is None:
            if attributes.scheme == "interpreteval":
                scheme = scheme_from_gold(values)
            else:
                scheme = BucketScheme.from_gold(values)
        buckets = {s.attribute: s.assign(_items(values, s)[0]) for s in scheme.attributes}
        return cls(attributes, scheme, buckets)

    @property
    def lines(self) -> int:
        return int(self.attributes.sentence_length.size)


def analyse_run(
    track: BucketedGold,
    run: ScoredRun,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    lines: Mask | None = None,
) -> RunBuckets:
    """Per-bucket counts and F intervals of one run (see :func:`analyse_runs`)."""
    return analyse_runs(track, [run], samples=samples, seed=seed, lines=lines)[0]


def analyse_runs(
    track: BucketedGold,
    runs: Sequence[ScoredRun],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    lines: Mask | None = None,
    resampling: Resampling | None = None,
) -> list[RunBuckets]:
    """Bucket analyses of several runs of a track, sharing one look-up pass and one resampling.

    ``lines`` (a mask over the test lines) restricts every count to those sentences, for a
    breakdown by domain; the bootstrap then resamples those sentences only.

    >>> from scoring import Dictionary, TrainingText, build_gold_index, prepare_track
    >>> from scoring import score_run_details
    >>> words = Dictionary.from_words(["结婚", "的"])
    >>> gold = build_gold_index("结婚 的 和尚\\n我 爱 北京\\n", words)
    >>> training = TrainingText.from_segmented("结婚 的 和尚\\n")
    >>> track = BucketedGold.prepare(prepare_track(gold, training))
    >>> run = score_run_details("结婚 的和尚\\n我 爱 北京\\n", gold)
    >>> (analysis,) = analyse_runs(track, [run], samples=50)
    >>> for b in analysis["wLen"].buckets:
    ...     print(b.label, b.gold_words, b.correct_gold, b.f)
    wLen {1} 3 2 0.8
    wLen {2} 3 2 0.8
    wLen {3} 0 0 0.0
    wLen [4, inf) 0 0 None
    """
    if not runs:
        return []
    run_values = track.attributes.runs_values(runs)
    kept = np.ones(track.lines, np.bool_) if lines is None else np.asarray(lines, np.bool_)
    if resampling is None and samples > 0:
        resampling = Resampling.draw(int(np.count_nonzero(kept)), samples=samples, seed=seed)
    gold_values = track.attributes.gold_values
    gold_counts = _per_line(track, track.gold_buckets, _lines(gold_values, track), None)[kept]
    counts = [
        _run_counts(track, run, values, kept) for run, values in zip(runs, run_values, strict=True)
    ]
    columns = gold_counts.shape[1]
    intervals: list[list[tuple[float, float] | None]] = [[None] * columns for _ in runs]
    if resampling is not None:
        # One product for all runs: the gold columns, then each run's run and correct columns.
        stacked = np.concatenate([gold_counts, *(c for r, k, _ in counts for c in (r, k))], axis=1)
        sums = resampling.totals(stacked)
        gold_sums = sums[:, :columns]
        for position in range(len(runs)):
            start = columns * (1 + 2 * position)
            f = f_scores(
                gold_sums,
                sums[:, start : start + columns],
                sums[:, start + columns : start + 2 * columns],
            )
            intervals[position] = percentile_intervals(f)
    return [
        _analyse(track, run, gold_counts, run_counts, intervals[position], resampling)
        for position, (run, run_counts) in enumerate(zip(runs, counts, strict=True))
    ]


def _run_counts(
    track: BucketedGold, run: ScoredRun, values: WordValues, kept: Mask
) -> tuple[IntArray, IntArray, IntArray]:
    """Per line and bucket: run words, correct gold words, correct run words (characters for an
    attribute of characters)."""
    schemes = track.scheme.attributes
    run_buckets = {s.attribute: s.assign(_items(values, s)[0]) for s in schemes}
    gold_correct: dict[str, Mask] = {}
    run_correct: dict[str, Mask] = {}
    for scheme in schemes:
        if scheme.unit == "word":
            gold_correct[scheme.attribute] = run.gold_correct
            run_correct[scheme.attribute] = run.run_correct
            continue
        # A gold and a run character that may pair up count when they share the bucket.
        assert values.characters is not None and values.characters.pairs is not None
        gold_at, run_at = values.characters.pairs
        gold_bucket = track.gold_buckets[scheme.attribute]
        run_bucket = run_buckets[scheme.attribute]
        same = gold_bucket[gold_at] == run_bucket[run_at]
        gold_mask = np.zeros(gold_bucket.size, np.bool_)
        gold_mask[gold_at[same]] = True
        run_mask = np.zeros(run_bucket.size, np.bool_)
        run_mask[run_at[same]] = True
        gold_correct[scheme.attribute] = gold_mask
        run_correct[scheme.attribute] = run_mask
    gold_lines = _lines(track.attributes.gold_values, track)
    run_lines = _lines(values, track)
    return (
        _per_line(track, run_buckets, run_lines, None)[kept],
        _per_line(track, track.gold_buckets, gold_lines, gold_correct)[kept],
        _per_line(track, run_buckets, run_lines, run_correct)[kept],
    )


def _items(values: WordValues, scheme: AttributeScheme) -> tuple[FloatArray, IntArray]:
    """The values of one attribute and the line of each item (a word, or a character)."""
    if scheme.unit == "word":
        return values.values[scheme.attribute], values.line
    if values.characters is None:
        raise ValueError(f"{scheme.attribute} is an attribute of characters, which have no values")
    return values.characters.values[scheme.attribute], values.characters.line


def _lines(values: WordValues, track: BucketedGold) -> dict[str, IntArray]:
    return {s.attribute: _items(values, s)[1] for s in track.scheme.attributes}


def _per_line(
    track: BucketedGold,
    buckets: Mapping[str, IntArray],
    lines_of: Mapping[str, IntArray],
    weights: Mapping[str, Mask] | None,
) -> IntArray:
    """Items per line and bucket: shape (lines, all buckets of all attributes)."""
    lines = track.lines
    columns = []
    for scheme in track.scheme.attributes:
        size = len(scheme.bounds)
        keys = lines_of[scheme.attribute] * size + buckets[scheme.attribute]
        if weights is not None:
            keys = keys[weights[scheme.attribute]]
        columns.append(np.bincount(keys, minlength=lines * size).reshape(lines, size))
    return np.concatenate(columns, axis=1)


def _analyse(
    track: BucketedGold,
    run: ScoredRun,
    gold_counts: IntArray,
    counts: tuple[IntArray, IntArray, IntArray],
    intervals: list[tuple[float, float] | None],
    resampling: Resampling | None,
) -> RunBuckets:
    schemes = track.scheme.attributes
    run_counts, correct, correct_run = counts
    sums_gold, sums_run = gold_counts.sum(0), run_counts.sum(0)
    sums_correct, sums_correct_run = correct.sum(0), correct_run.sum(0)
    attributes = []
    column = 0
    for scheme in schemes:
        buckets = []
        for label in scheme.labels:
            buckets.append(
                BucketScore(
                    label=label,
                    gold_words=int(sums_gold[column]),
                    run_words=int(sums_run[column]),
                    correct_gold=int(sums_correct[column]),
                    correct_run=int(sums_correct_run[column]),
                    f_interval=intervals[column],
                )
            )
            column += 1
        attributes.append(AttributeBuckets(scheme.attribute, tuple(buckets)))
    gold = track.attributes.gold
    training = track.attributes.training
    first = len(schemes[0].bounds)
    signature = BucketSignature(
        scorer_version=__version__,
        gold_checksum=gold.checksum,
        dictionary_checksum=gold.dictionary_checksum,
        training_checksum=training.checksum if training is not None else None,
        scheme=track.scheme.name,
        scheme_checksum=track.scheme.checksum,
        samples=resampling.samples if resampling is not None else 0,
        seed=resampling.seed if resampling is not None else 0,
    )
    return RunBuckets(
        score=run.score,
        attributes=tuple(attributes),
        unavailable=tuple(track.attributes.unavailable.items()),
        signature=signature,
        # Every attribute's buckets hold every word once: the first attribute's sum is the total.
        true_words=int(gold_counts[:, :first].sum()),
        test_words=int(run_counts[:, :first].sum()),
        correct=int(correct[:, :first].sum()),
    )
