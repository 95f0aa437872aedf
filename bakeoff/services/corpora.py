"""Corpora, their gold versions and tracks. The cached gold index and dictionary are in
``gold_index``, the BASE and TOP runs in ``reference_runs``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import scoring
from bakeoff.errors import interpolate, listing

from .. import audit, clock, signals
from ..access import Account, User
from ..audit_text import GOLD, GOLD_DIFFERENCES_ACCEPTED, RESCORED, Subject
from ..errors import InvalidFile, Refused, english
from ..models import (
    Bakeoff,
    BucketScheme,
    Condition,
    Corpus,
    GoldVersion,
    Submission,
    SubmissionStatus,
    Track,
)
from ..task_base import enqueue_on_commit
from ..task_names import SCORE_SUBMISSION
from ..validators import check_text
from . import uploads
from .domains import check_domain_labels, store_domain_labels
from .gold_index import gold_index_for, make_dictionary
from .reference_runs import do_add_reference_runs, do_refresh_topline_runs, reference_texts


@dataclass(frozen=True)
class CorpusFiles:
    """The raw bytes an organiser uploads, in the corpus's declared encoding."""

    gold: bytes
    test_text: bytes | None = None
    training_words: bytes | None = None
    training_text: bytes | None = None
    domain_labels: bytes | None = None


@dataclass(frozen=True)
class CheckedCorpus:
    gold_text: str
    test_text: str
    training_words: str | None
    training_text: str | None
    dictionary: scoring.Dictionary
    differences: list[dict[str, object]]
    domain_labels: tuple[str, ...] | None = None


def check_corpus_files(files: CorpusFiles, encoding: str) -> CheckedCorpus:
    """Decode and check the files of a corpus (docs/validation.md) before anything is stored."""
    gold_text = uploads.decode_corpus_file(files.gold, encoding, "gold")
    if not gold_text.strip():
        raise InvalidFile(_("gold: the file is empty."))
    if files.test_text is not None:
        test_text = uploads.decode_corpus_file(files.test_text, encoding, "test text")
    else:
        test_text = scoring.test_text_from_gold(gold_text)
    words = (
        uploads.decode_corpus_file(files.training_words, encoding, "training word list")
        if files.training_words is not None
        else None
    )
    training = (
        uploads.decode_corpus_file(files.training_text, encoding, "training text")
        if files.training_text is not None
        else None
    )
    try:
        differences = scoring.compare_gold_to_test(gold_text, test_text)
    except scoring.ScoringError as error:
        raise InvalidFile.from_scoring_error(error, "gold") from None
    labels = None
    if files.domain_labels is not None:
        labels = check_domain_labels(files.domain_labels, encoding, test_text)
    return CheckedCorpus(
        domain_labels=labels,
        gold_text=gold_text,
        test_text=test_text,
        training_words=words,
        training_text=training,
        dictionary=make_dictionary(words, training),
        differences=[_difference(d) for d in differences],
    )


def _difference(d: scoring.LineDifference) -> dict[str, object]:
    return {"line": d.line, "column": d.column, "gold": d.gold, "test": d.test}


def do_create_corpus(
    bakeoff: Bakeoff,
    files: CorpusFiles,
    *,
    name: str,
    abbreviation: str,
    institution: str,
    standard: str = "",
    encoding: str = "utf-8",
    conditions: Sequence[str] = (Condition.CLOSED,),
    max_runs: int = 2,
    notes: str = "",
    licence: str = "",
    user: User | None = None,
    accept_differences: bool = False,
    now: datetime | None = None,
) -> Corpus:
    """Create a corpus with its first gold version, its tracks, and their BASE and TOP runs."""
    now = now or clock.now()
    codec = scoring.normalise_encoding(encoding)
    if Corpus.objects.filter(bakeoff=bakeoff, abbreviation__iexact=abbreviation).exists():
        raise Refused(
            interpolate(
                _("This bakeoff already has a corpus %(abbreviation)s."), abbreviation=abbreviation
            )
        )
    checked = check_corpus_files(files, codec)
    with uploads.files_removed_on_failure(), transaction.atomic():
        corpus = Corpus(
            bakeoff=bakeoff,
            name=name,
            abbreviation=abbreviation,
            institution=institution,
            standard=standard,
            encoding=codec,
            notes=notes,
            licence=licence.strip(),
            dictionary_checksum=checked.dictionary.checksum,
        )
        stem = f"{bakeoff.slug}-{abbreviation.lower()}"
        corpus.test_text_checksum = uploads.save_utf8(
            corpus.test_text, checked.test_text, f"{stem}-test"
        )
        if checked.training_words is not None:
            corpus.training_words_checksum = uploads.save_utf8(
                corpus.training_words, checked.training_words, f"{stem}-training-words"
            )
        if checked.training_text is not None:
            corpus.training_text_checksum = uploads.save_utf8(
                corpus.training_text, checked.training_text, f"{stem}-training"
            )
        if checked.domain_labels is not None:
            store_domain_labels(corpus, checked.domain_labels)
        corpus.save()
        gold = _store_gold(
            corpus,
            checked.gold_text,
            checked.differences,
            accept=accept_differences,
            user=user,
            now=now,
            note="",
        )
        audit.record(
            bakeoff,
            audit.CORPUS_ADDED,
            f"{corpus.abbreviation} ({corpus.name})",
            actor=_real(user),
            now=now,
            test_text_checksum=corpus.test_text_checksum,
            training_words_checksum=corpus.training_words_checksum,
            training_text_checksum=corpus.training_text_checksum,
            dictionary_checksum=corpus.dictionary_checksum,
            conditions=list(conditions),
        )
        texts = reference_texts(checked.test_text, checked.gold_text, checked.dictionary)
        for condition in conditions:
            do_add_track(corpus, condition, max_runs=max_runs, by=user, now=now, texts=texts)
        signals.gold_version_added.send(sender=GoldVersion, gold=gold, corpus=corpus, now=now)
    gold_index_for(gold)  # built once, now, rather than by the first run's task
    return corpus


def _real(user: User | None) -> Account | None:
    return user if isinstance(user, AbstractBaseUser) else None


def _store_gold(
    corpus: Corpus,
    gold_text: str,
    differences: list[dict[str, object]],
    *,
    accept: bool,
    user: User | None,
    now: datetime,
    note: str,
) -> GoldVersion:
    """The next gold version of the corpus, its differences from the test text accepted at once
    if ``accept``; recorded."""
    canonical = scoring.gold_checksum(gold_text)
    accepted = accept and bool(differences)
    for _attempt in range(5):
        number = (corpus.gold_versions.aggregate(n=Max("number"))["n"] or 0) + 1
        gold = GoldVersion(
            corpus=corpus,
            number=number,
            note=note,
            uploaded_at=now,
            uploaded_by=_real(user),
            differences=differences,
            accepted_at=now if accepted else None,
            accepted_by=_real(user) if accepted else None,
        )
        gold.canonical_checksum = canonical
        try:
            # Two gold versions racing for one number: the loser's file goes with its row.
            with uploads.files_removed_on_failure(), transaction.atomic():
                gold.checksum = uploads.save_utf8(
                    gold.file,
                    gold_text,
                    f"{corpus.bakeoff.slug}-{corpus.abbreviation.lower()}-gold",
                )
                gold.save()
        except IntegrityError:
            continue
        _record_gold(
            gold,
            audit.GOLD_VERSION_ADDED,
            GOLD,
            user=user,
            now=now,
            note=gold.note,
            differences=len(gold.differences),
            accepted=gold.accepted_at is not None,
        )
        return gold
    raise Refused(_("Another gold version was being added at the same time; try again."))


def do_add_gold_version(
    corpus: Corpus,
    gold_data: bytes,
    *,
    user: User | None = None,
    note: str = "",
    accept_differences: bool = False,
    now: datetime | None = None,
) -> GoldVersion:
    """Add a gold version; every run of the corpus is scored again against it, old scores kept."""
    now = now or clock.now()
    check_text(note=note)
    gold_text = uploads.decode_corpus_file(gold_data, corpus.encoding, "gold")
    test_text = uploads.read_stored_text(corpus.test_text)
    try:
        differences = [_difference(d) for d in scoring.compare_gold_to_test(gold_text, test_text)]
    except scoring.ScoringError as error:
        raise InvalidFile.from_scoring_error(error, "gold") from None
    with uploads.files_removed_on_failure(), transaction.atomic():
        gold = _store_gold(
            corpus,
            gold_text,
            differences,
            accept=accept_differences,
            user=user,
            now=now,
            note=note,
        )
        do_refresh_topline_runs(corpus, test_text, gold_text)
        cause = interpolate(_("gold version %(number)s"), number=gold.number)
        do_rescore_corpus(corpus, now=now, user=user, cause=cause)
        signals.gold_version_added.send(sender=GoldVersion, gold=gold, corpus=corpus, now=now)
    gold_index_for(gold)
    return gold


def do_accept_differences(
    gold: GoldVersion, *, user: User | None = None, now: datetime | None = None
) -> bool:
    """The organiser accepts the listed gold/test disagreements; runs are scored again."""
    now = now or clock.now()
    with transaction.atomic():
        changed = GoldVersion.objects.filter(pk=gold.pk, accepted_at__isnull=True).update(
            accepted_at=now, accepted_by=_real(user)
        )
        if changed:
            _record_gold(
                gold,
                audit.CORRECTION_ACCEPTED,
                GOLD_DIFFERENCES_ACCEPTED,
                user=user,
                now=now,
                lines=sorted({int(d["line"]) for d in gold.differences}),
            )
            cause = interpolate(_("differences of gold v%(number)s accepted"), number=gold.number)
            do_rescore_corpus(gold.corpus, now=now, user=user, cause=cause)
    gold.refresh_from_db()
    return bool(changed)


def _record_gold(
    gold: GoldVersion, action: str, what: str, *, user: User | None, now: datetime, **details: Any
) -> None:
    """An audit entry about a gold version (its corpus, number and checksum); ``what`` is its
    subject's code (``audit_text.GOLD`` or ``GOLD_DIFFERENCES_ACCEPTED``)."""
    corpus = gold.corpus
    audit.record(
        corpus.bakeoff,
        action,
        Subject(what, {"corpus": corpus.abbreviation, "gold": gold.number}),
        actor=_real(user),
        now=now,
        corpus=corpus.abbreviation,
        gold_version=gold.number,
        checksum=gold.checksum,
        **details,
    )


def do_rescore_corpus(
    corpus: Corpus, *, now: datetime, user: User | None = None, cause: StrOrPromise = ""
) -> int:
    """Queue every run of the corpus for scoring again (after a change of gold); the ``cause``
    is recorded in English and in every language of the pages."""
    submissions = Submission.objects.filter(track__corpus=corpus)
    pks = list(submissions.values_list("pk", flat=True))
    with transaction.atomic():
        count = submissions.update(
            status=SubmissionStatus.QUEUED,
            reason="",
            reason_code="",
            reason_params={},
            attempts=0,
            status_changed_at=now,
        )
        if pks:
            said: dict[str, Any] = {audit.IN_LANGUAGES: {"cause": audit.in_languages(cause)}}
            audit.record(
                corpus.bakeoff,
                audit.RUN_RESCORED,
                Subject(RESCORED, {"count": count, "corpus": corpus.abbreviation}),
                actor=_real(user),
                now=now,
                corpus=corpus.abbreviation,
                cause=english(cause),
                **said,
                submissions=pks,
            )
        for pk in pks:
            enqueue_on_commit(SCORE_SUBMISSION, pk)
    return count


def do_add_track(
    corpus: Corpus,
    condition: str,
    *,
    max_runs: int = 2,
    bucket_scheme: str = BucketScheme.DEFAULT,
    by: User | None = None,
    now: datetime | None = None,
    texts: dict[str, str] | None = None,
) -> Track:
    """A track of the corpus, with its BASE and TOP runs queued for scoring."""
    now = now or clock.now()
    if condition not in Condition.values:
        raise Refused(
            interpolate(
                _("Unknown condition %(condition)s: use open or closed."), condition=repr(condition)
            )
        )
    _check_bucket_scheme(bucket_scheme)
    check_track_free(corpus, condition)
    with transaction.atomic():
        try:
            # A savepoint: after a refused insert the transaction can still read (the check).
            with transaction.atomic():
                track = Track.objects.create(
                    corpus=corpus,
                    condition=condition,
                    slug=f"{corpus.abbreviation.lower()}-{condition}",
                    max_runs=max_runs,
                    bucket_scheme=bucket_scheme,
                )
        except IntegrityError:
            # Another request added the track between the check and the insert: the unique
            # constraint refused this one, which is answered as the check would have.
            check_track_free(corpus, condition)
            raise
        references = do_add_reference_runs(track, now=now, texts=texts)
        audit.record(
            corpus.bakeoff,
            audit.TRACK_ADDED,
            track.name,
            actor=_real(by),
            track=track,
            now=now,
            condition=condition,
            max_runs=max_runs,
            bucket_scheme=bucket_scheme,
            reference_runs={str(run.kind): run.checksum for run in references},
        )
    return track


def check_track_free(corpus: Corpus, condition: str) -> None:
    """A corpus has one track per condition (the constraint ``one_track_per_condition``)."""
    if Track.objects.filter(corpus=corpus, condition=condition).exists():
        raise Refused(_("This corpus already has a track in that condition."), code="track_exists")


def _check_bucket_scheme(scheme: str) -> None:
    if scheme not in BucketScheme.values:
        raise Refused(
            interpolate(
                _("Unknown bucket scheme %(scheme)s: the schemes are %(schemes)s."),
                scheme=repr(scheme),
                schemes=listing(BucketScheme.values),
            )
        )


def do_set_bucket_scheme(
    track: Track, scheme: str, *, by: User | None = None, now: datetime | None = None
) -> bool:
    """Cut the track's runs by another bucket scheme (docs/measures/buckets.md); its analysis is
    computed again. Answers whether the scheme changed."""
    now = now or clock.now()
    _check_bucket_scheme(scheme)
    old = track.bucket_scheme
    with transaction.atomic():
        changed = (
            Track.objects.filter(pk=track.pk)
            .exclude(bucket_scheme=scheme)
            .update(bucket_scheme=scheme)
        )
        track.bucket_scheme = scheme
        if changed:
            audit.record(
                track.corpus.bakeoff,
                audit.TRACK_EDITED,
                track.name,
                actor=_real(by),
                track=track,
                now=now,
                old={"bucket_scheme": old},
                new={"bucket_scheme": scheme},
            )
            signals.bucket_scheme_changed.send(sender=Track, track=track, now=now)
    return bool(changed)
