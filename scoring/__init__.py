"""Scoring of Chinese word segmentation runs, as the SIGHAN bakeoffs define it (see SPEC.md).

A plain library: no Django. The platform's web apps and Celery workers call it, and a participant
can run it from the command line (``python -m scoring --help``) to check a run before uploading.

Typical use::

    from scoring import Dictionary, build_gold_index, score_run
    gold = build_gold_index(gold_text, Dictionary.from_word_list(words_text))
    result = score_run(run_text, gold)
    result.f, result.to_dict()
"""

from .align import LineDifference, compare_gold_to_test
from .dictionary import Dictionary, read_dictionary
from .errors import (
    CorpusFormatError,
    EncodingError,
    LineCountError,
    RunValidationError,
    ScoringError,
)
from .gold import GoldIndex, build_gold_index
from .io import (
    ENCODINGS,
    decode,
    normalise_encoding,
    read_text,
    split_lines,
    test_text_from_gold,
    to_utf8,
)
from .maxmatch import baseline_run, maxmatch, topline_run
from .result import Score, Signature
from .score import score_run, score_texts
from .significance import (
    Interval,
    confidence_interval,
    insignificant_pairs,
    significantly_different,
)
from .table import RankedRow, rank_scores
from .validate import validate_run
from .version import __version__

__all__ = [
    "ENCODINGS",
    "CorpusFormatError",
    "Dictionary",
    "EncodingError",
    "GoldIndex",
    "Interval",
    "LineCountError",
    "LineDifference",
    "RankedRow",
    "RunValidationError",
    "Score",
    "ScoringError",
    "Signature",
    "__version__",
    "baseline_run",
    "build_gold_index",
    "compare_gold_to_test",
    "confidence_interval",
    "decode",
    "insignificant_pairs",
    "maxmatch",
    "normalise_encoding",
    "rank_scores",
    "read_dictionary",
    "read_text",
    "score_run",
    "score_texts",
    "significantly_different",
    "split_lines",
    "test_text_from_gold",
    "to_utf8",
    "topline_run",
    "validate_run",
]
