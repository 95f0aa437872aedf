"""The cached readings of a corpus: its dictionary (word list and training words) and the index of
a gold version that every score is computed against, kept on disk and in memory.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from functools import lru_cache
from pathlib import Path

from django.conf import settings

import scoring

from ..models import Corpus, GoldVersion
from . import uploads


def make_dictionary(words: str | None, training: str | None) -> scoring.Dictionary:
    if words is not None:
        return scoring.Dictionary.from_word_list(words)
    if training is not None:
        return scoring.Dictionary.from_segmented(training)
    return scoring.Dictionary.from_word_list("")


def dictionary_for(corpus: Corpus) -> scoring.Dictionary:
    return _dictionary(
        corpus.pk,
        corpus.dictionary_checksum,
        corpus.training_words.name or "",
        corpus.training_text.name or "",
    )


@lru_cache(maxsize=8)
def _dictionary(pk: int, checksum: str, words_name: str, training_name: str) -> scoring.Dictionary:
    corpus = Corpus.objects.get(pk=pk)
    words = uploads.read_stored_text(corpus.training_words) if words_name else None
    training = uploads.read_stored_text(corpus.training_text) if training_name else None
    return make_dictionary(words, training)


def gold_index_path(gold: GoldVersion) -> Path:
    """Where this process keeps the gold index: its local cache, keyed by the checksums it is built
    from (gold, dictionary, library version), so any worker on any machine can rebuild it."""
    key = hashlib.sha256(
        f"{gold.checksum}|{gold.corpus.dictionary_checksum}|{scoring.__version__}".encode()
    ).hexdigest()[:32]
    return Path(settings.BAKEOFF_CACHE_DIR) / "gold-index" / f"{key}.npz"


def gold_index_for(gold: GoldVersion) -> scoring.GoldIndex:
    """The gold index of a gold version: built once per machine from the stored gold, cached."""
    return _gold_index(str(gold_index_path(gold)), gold.pk)


@lru_cache(maxsize=4)
def _gold_index(path_name: str, gold_pk: int) -> scoring.GoldIndex:
    path = Path(path_name)
    if path.exists():
        try:
            return scoring.GoldIndex.load(path)
        except (scoring.ScoringError, OSError, ValueError):
            pass  # written by another version of the library: build it again
    gold = GoldVersion.objects.select_related("corpus").get(pk=gold_pk)
    index = scoring.build_gold_index(uploads.read_stored(gold.file), dictionary_for(gold.corpus))
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written aside and renamed, so another process never loads a half-written file.
    partial = path.with_name(f".{uuid.uuid4().hex}.npz")
    index.save(partial)
    os.replace(partial, path)
    return index
