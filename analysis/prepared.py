"""What the analysis computes once and reuses: a corpus's training statistics and a track's
gold attributes, bucket scheme and gold buckets.

Both are built in the worker that analyses a track and kept in memory, keyed by checksums (as
``bakeoff.services.gold_index_for`` keeps the gold index): the training statistics once per
training corpus, the gold attributes once per gold version and bucket scheme (a track's
``bucket_scheme``). Pages never build them.
"""

from __future__ import annotations

from functools import lru_cache

from bakeoff.models import Corpus, GoldVersion
from bakeoff.services import dictionary_for, gold_index_for, uploads
from scoring import BucketedGold, TrainingText, prepare_track

UNAVAILABLE_PSI = "no training text (only a word list): Ψ needs the training corpus as running text"


def has_training_text(corpus: Corpus) -> bool:
    return bool(corpus.training_text.name)


def training_for(corpus: Corpus) -> TrainingText | None:
    """The statistics of the corpus's segmented training text, or None when it has none."""
    if not has_training_text(corpus):
        return None
    return _training(corpus.pk, corpus.training_text_checksum)


@lru_cache(maxsize=4)
def _training(corpus_pk: int, checksum: str) -> TrainingText:
    corpus = Corpus.objects.get(pk=corpus_pk)
    return TrainingText.from_segmented(uploads.read_stored_text(corpus.training_text))


def prepared_track(gold: GoldVersion, scheme: str = "default") -> BucketedGold:
    """The gold attributes, scheme and gold buckets of the tracks of a gold version's corpus
    that cut their runs by ``scheme`` (a Track.bucket_scheme)."""
    corpus = gold.corpus
    return _prepared(
        gold.pk, gold.checksum, corpus.dictionary_checksum, corpus.training_text_checksum, scheme
    )


@lru_cache(maxsize=4)
def _prepared(
    gold_pk: int, checksum: str, dictionary: str, training: str, scheme: str
) -> BucketedGold:
    gold = GoldVersion.objects.select_related("corpus").get(pk=gold_pk)
    attributes = prepare_track(
        gold_index_for(gold),
        training_for(gold.corpus),
        scheme=scheme,
        dictionary=dictionary_for(gold.corpus),
    )
    return BucketedGold.prepare(attributes)


def clear() -> None:
    """Forget what was built (tests, and a worker after a corpus's files change)."""
    _training.cache_clear()
    _prepared.cache_clear()
