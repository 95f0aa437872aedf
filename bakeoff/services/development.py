"""A corpus's development set, and the scoring of a development run against it
(docs/phases.md): a ``DevelopmentScore``, never a ``Score``. The phase's rules are in ``phases``.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

import scoring
from bakeoff.errors import interpolate

from .. import audit, clock, failures
from ..access import User
from ..audit_text import DEVELOPMENT_SET, Subject
from ..errors import InvalidFile
from ..failures import Failure
from ..figures import stored as stored_figures
from ..models import Corpus, DevelopmentScore, DevelopmentSet, Submission, Track
from . import uploads
from .gold_index import dictionary_for


def do_add_development_set(
    corpus: Corpus,
    *,
    text: bytes | None,
    gold: bytes,
    by: User | None = None,
    now: datetime | None = None,
) -> DevelopmentSet:
    """Store (or replace) a corpus's development set; the text defaults to the gold unsegmented.

    The gold is checked against the text like a test gold; a disagreement is refused (a
    development set has no review step)."""
    now = now or clock.now()
    gold_text = uploads.decode_corpus_file(gold, corpus.encoding, "development gold")
    if not gold_text.strip():
        raise InvalidFile(_("development gold: the file is empty."))
    plain = (
        uploads.decode_corpus_file(text, corpus.encoding, "development text")
        if text is not None
        else scoring.test_text_from_gold(gold_text)
    )
    try:
        differences = scoring.compare_gold_to_test(gold_text, plain)
    except scoring.ScoringError as error:
        raise InvalidFile.from_scoring_error(error, "development gold") from None
    if differences:
        raise InvalidFile(
            interpolate(
                ngettext_lazy(
                    "development gold: it differs from the development text on %(count)s line, "
                    "line %(line)s.",
                    "development gold: it differs from the development text on %(count)s lines, "
                    "the first at line %(line)s.",
                    "count",
                ),
                count=len(differences),
                line=differences[0].line,
            )
        )
    stem = f"{corpus.bakeoff.slug}-{corpus.abbreviation.lower()}-dev"
    with uploads.files_removed_on_failure(), transaction.atomic():
        dev = DevelopmentSet.objects.filter(corpus=corpus).first() or DevelopmentSet(corpus=corpus)
        dev.text_checksum = uploads.save_utf8(dev.text, plain, f"{stem}-text")
        dev.gold_checksum = uploads.save_utf8(dev.gold, gold_text, f"{stem}-gold")
        dev.added_at = now
        dev.save()
        audit.record(
            corpus.bakeoff,
            audit.DEVELOPMENT_SET_ADDED,
            Subject(DEVELOPMENT_SET, {"corpus": corpus.abbreviation}),
            actor=by,
            now=now,
            text_checksum=dev.text_checksum,
            gold_checksum=dev.gold_checksum,
        )
    return dev


def check_development_run(data: bytes, track: Track) -> str:
    """The run's text, matching the development text line by line."""
    dev = DevelopmentSet.objects.get(corpus=track.corpus_id)
    text = uploads.decode(data, track.corpus.encoding, "run")
    try:
        scoring.validate_run(text, uploads.read_stored_text(dev.text))
    except scoring.ScoringError as error:
        raise InvalidFile.from_scoring_error(error) from None
    return text


def development_index(dev: DevelopmentSet) -> scoring.GoldIndex:
    return _development_index(dev.pk, dev.gold_checksum, dev.corpus.dictionary_checksum)


@lru_cache(maxsize=4)
def _development_index(pk: int, gold_checksum: str, dictionary_checksum: str) -> scoring.GoldIndex:
    dev = DevelopmentSet.objects.select_related("corpus").get(pk=pk)
    return scoring.build_gold_index(uploads.read_stored(dev.gold), dictionary_for(dev.corpus))


def score_development(submission: Submission, *, now: datetime) -> DevelopmentScore | Failure:
    """The development score of a claimed run, or the reason it cannot be scored."""
    dev = DevelopmentSet.objects.select_related("corpus").filter(corpus=submission.track.corpus_id)
    development = dev.first()
    if development is None:
        return Failure(failures.NO_DEVELOPMENT_SET)
    try:
        result = scoring.score_run(
            uploads.read_stored(submission.file), development_index(development)
        )
    except scoring.ScoringError as error:
        return failures.unscorable(error)
    n = int(result.true_words)
    figures = result.to_dict()
    score, _created = DevelopmentScore.objects.update_or_create(
        submission=submission,
        defaults={
            **stored_figures(figures),
            "cr": scoring.confidence_interval(result.recall, n) if n else 0.0,
            "cp": scoring.confidence_interval(result.precision, n) if n else 0.0,
            "gold_checksum": development.gold_checksum,
            "result": figures,
            "signature": str(result.signature)[:500],
            "created_at": now,
        },
    )
    return score
