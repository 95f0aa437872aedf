"""Scoring of Chinese word segmentation runs, as the SIGHAN bakeoffs define it (see docs/README.md).

A plain library: no Django. The platform's web apps and Celery workers call it, and a participant
can run it from the command line (``python -m scoring --help``) to check a run before uploading.

Typical use::

    from scoring import Dictionary, build_gold_index, score_run
    gold = build_gold_index(gold_text, Dictionary.from_word_list(words_text))
    result = score_run(run_text, gold)
    result.f, result.to_dict()

The library has layers, each importing only those below it:

* ``scoring.core``: reading and checking texts, the dictionary, the gold index, span scores,
  maximum matching, confidence intervals and significance, the ranked table.
* ``scoring.fine``: fine-grained analysis on top of the core: word attributes, attribute
  buckets, the bootstrap, diagnosis, the segmentation-criterion discrepancy, domains.
* ``scoring.psychometric``: the CRF committee, word difficulty and the balanced F.
* ``scoring.frames`` (results as pandas DataFrames) and ``scoring.cli`` (the command line), above
  all of them.

The public names below are loaded on first use (PEP 562), so ``import scoring`` costs almost
nothing and a caller pays only for the layer it uses: scipy, pyahocorasick, python-crfsuite and
pandas are imported inside the functions that need them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .core.version import __version__

if TYPE_CHECKING:  # the same names as _EXPORTS, for type checkers and readers
    from .core.align import LineDifference, compare_gold_to_test
    from .core.dictionary import Dictionary, read_dictionary
    from .core.errors import (
        ControlCharacterError,
        CorpusFormatError,
        CorpusLineCountError,
        EncodingError,
        LineCountError,
        RunValidationError,
        ScoringError,
    )
    from .core.gold import GoldIndex, build_gold_index, gold_checksum
    from .core.maxmatch import baseline_run, maxmatch, topline_run
    from .core.memory import keep_freed_memory
    from .core.result import (
        PrecisionRecall,
        Score,
        Signature,
        exact_f,
        f_scores,
        harmonic_mean,
        precision_recall_f,
    )
    from .core.score import ScoredRun, score_run, score_run_details, score_texts
    from .core.significance import (
        Interval,
        confidence_interval,
        insignificant_pairs,
        significantly_different,
    )
    from .core.table import RankedRow, format_table, rank_scores, row_for
    from .core.text import (
        ENCODINGS,
        check_characters,
        decode,
        normalise_encoding,
        read_text,
        split_lines,
        test_text_from_gold,
        to_utf8,
        words_of,
    )
    from .core.validate import validate_run
    from .fine.attributes import (
        NEEDS_TRAINING_TEXT,
        UNAVAILABLE_REASON,
        TrackAttributes,
        TrainingText,
        prepare_track,
        segmentation_words,
    )
    from .fine.bootstrap import (
        DEFAULT_SAMPLES,
        DEFAULT_SEED,
        PairedBootstrap,
        Resampling,
        adjacent_bootstrap,
        all_pairs_bootstrap,
        paired_bootstrap,
    )
    from .fine.buckets import (
        AttributeBuckets,
        BucketedGold,
        BucketScore,
        BucketSignature,
        RunBuckets,
        analyse_run,
        analyse_runs,
    )
    from .fine.criterion import criterion_discrepancy, criterion_matrix
    from .fine.diagnosis import AidedDiagnosis, aided_diagnosis, self_diagnosis, track_profile
    from .fine.domains import (
        DomainScore,
        domain_figures,
        domain_scores,
        labels_checksum,
        read_domains,
    )
    from .fine.schemes import ATTRIBUTES, SCHEME_NAMES, BucketScheme
    from .psychometric.balanced import BalancedScore, BalancedSignature, balanced_score
    from .psychometric.committee import build_committee, committee_from_runs, training_sentences
    from .psychometric.difficulty import Committee

# public name -> the module (under scoring) that defines it
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(["LineDifference", "compare_gold_to_test"], "core.align"),
    **dict.fromkeys(["Dictionary", "read_dictionary"], "core.dictionary"),
    **dict.fromkeys(
        [
            "ControlCharacterError",
            "CorpusFormatError",
            "CorpusLineCountError",
            "EncodingError",
            "LineCountError",
            "RunValidationError",
            "ScoringError",
        ],
        "core.errors",
    ),
    **dict.fromkeys(["GoldIndex", "build_gold_index", "gold_checksum"], "core.gold"),
    **dict.fromkeys(["baseline_run", "maxmatch", "topline_run"], "core.maxmatch"),
    **dict.fromkeys(["keep_freed_memory"], "core.memory"),
    **dict.fromkeys(
        [
            "PrecisionRecall",
            "Score",
            "Signature",
            "exact_f",
            "f_scores",
            "harmonic_mean",
            "precision_recall_f",
        ],
        "core.result",
    ),
    **dict.fromkeys(["ScoredRun", "score_run", "score_run_details", "score_texts"], "core.score"),
    **dict.fromkeys(
        ["Interval", "confidence_interval", "insignificant_pairs", "significantly_different"],
        "core.significance",
    ),
    **dict.fromkeys(["RankedRow", "format_table", "rank_scores", "row_for"], "core.table"),
    **dict.fromkeys(
        [
            "ENCODINGS",
            "check_characters",
            "decode",
            "normalise_encoding",
            "read_text",
            "split_lines",
            "test_text_from_gold",
            "to_utf8",
            "words_of",
        ],
        "core.text",
    ),
    **dict.fromkeys(["validate_run"], "core.validate"),
    **dict.fromkeys(
        [
            "NEEDS_TRAINING_TEXT",
            "UNAVAILABLE_REASON",
            "TrackAttributes",
            "TrainingText",
            "prepare_track",
            "segmentation_words",
        ],
        "fine.attributes",
    ),
    **dict.fromkeys(
        [
            "DEFAULT_SAMPLES",
            "DEFAULT_SEED",
            "PairedBootstrap",
            "Resampling",
            "adjacent_bootstrap",
            "all_pairs_bootstrap",
            "paired_bootstrap",
        ],
        "fine.bootstrap",
    ),
    **dict.fromkeys(
        [
            "AttributeBuckets",
            "BucketScore",
            "BucketSignature",
            "BucketedGold",
            "RunBuckets",
            "analyse_run",
            "analyse_runs",
        ],
        "fine.buckets",
    ),
    **dict.fromkeys(["ATTRIBUTES", "BucketScheme", "SCHEME_NAMES"], "fine.schemes"),
    **dict.fromkeys(["criterion_discrepancy", "criterion_matrix"], "fine.criterion"),
    **dict.fromkeys(
        ["AidedDiagnosis", "aided_diagnosis", "self_diagnosis", "track_profile"], "fine.diagnosis"
    ),
    **dict.fromkeys(
        ["DomainScore", "domain_figures", "domain_scores", "labels_checksum", "read_domains"],
        "fine.domains",
    ),
    **dict.fromkeys(
        ["BalancedScore", "BalancedSignature", "balanced_score"], "psychometric.balanced"
    ),
    **dict.fromkeys(
        ["build_committee", "committee_from_runs", "training_sentences"], "psychometric.committee"
    ),
    "Committee": "psychometric.difficulty",
}

__all__ = [
    "ATTRIBUTES",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "ENCODINGS",
    "NEEDS_TRAINING_TEXT",
    "SCHEME_NAMES",
    "UNAVAILABLE_REASON",
    "AidedDiagnosis",
    "AttributeBuckets",
    "BalancedScore",
    "BalancedSignature",
    "BucketScheme",
    "BucketScore",
    "BucketSignature",
    "BucketedGold",
    "Committee",
    "ControlCharacterError",
    "CorpusFormatError",
    "CorpusLineCountError",
    "Dictionary",
    "DomainScore",
    "EncodingError",
    "GoldIndex",
    "Interval",
    "LineCountError",
    "LineDifference",
    "PairedBootstrap",
    "PrecisionRecall",
    "RankedRow",
    "Resampling",
    "RunBuckets",
    "RunValidationError",
    "Score",
    "ScoredRun",
    "ScoringError",
    "Signature",
    "TrackAttributes",
    "TrainingText",
    "__version__",
    "adjacent_bootstrap",
    "aided_diagnosis",
    "all_pairs_bootstrap",
    "analyse_run",
    "analyse_runs",
    "balanced_score",
    "baseline_run",
    "build_committee",
    "build_gold_index",
    "check_characters",
    "committee_from_runs",
    "compare_gold_to_test",
    "confidence_interval",
    "criterion_discrepancy",
    "criterion_matrix",
    "decode",
    "domain_figures",
    "domain_scores",
    "exact_f",
    "f_scores",
    "format_table",
    "gold_checksum",
    "harmonic_mean",
    "insignificant_pairs",
    "keep_freed_memory",
    "labels_checksum",
    "maxmatch",
    "normalise_encoding",
    "paired_bootstrap",
    "precision_recall_f",
    "prepare_track",
    "rank_scores",
    "read_dictionary",
    "read_domains",
    "read_text",
    "row_for",
    "score_run",
    "score_run_details",
    "score_texts",
    "segmentation_words",
    "self_diagnosis",
    "significantly_different",
    "split_lines",
    "test_text_from_gold",
    "to_utf8",
    "topline_run",
    "track_profile",
    "training_sentences",
    "validate_run",
    "words_of",
]


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (PEP 562); later look-ups find it in globals."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
