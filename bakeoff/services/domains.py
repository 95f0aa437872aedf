"""Domain labels of a corpus's test lines, and the figures per domain of every score.

A corpus may carry a domain label for each test line (a side file, one label a line, uploaded with
the corpus or later). Every word score of the corpus then stores its figures per domain in
``Score.result`` (``domains``, and ``domain_labels``: the checksum of the labels they were computed
with), as the scoring library's ``domain_figures`` gives them (docs/measures/scoring.md#domains).
A run scored after the labels came gets them in the same pass; scores stored before get them from
``do_score_domains`` (with the scoring, in recovery.py), queued when the labels are set.
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

import scoring
from bakeoff.errors import interpolate

from .. import audit, clock, signals
from ..access import User
from ..audit_text import DOMAIN_LABELS, Subject
from ..errors import InvalidFile
from ..models import Corpus
from ..task_base import enqueue_on_commit
from ..task_names import SCORE_DOMAINS
from . import uploads

logger = logging.getLogger(__name__)

#: At most this many domains: each is a column of the track's table by domain.
MAX_DOMAINS = 40
MAX_LABEL = 40


def check_domain_labels(data: bytes, encoding: str, test_text: str) -> tuple[str, ...]:
    """The labels of a domain file, one per line of ``test_text``, or InvalidFile saying why."""
    text = uploads.decode_corpus_file(data, encoding, "domain labels", controls=True)
    try:
        labels = scoring.read_domains(text, len(scoring.split_lines(test_text)))
    except scoring.ScoringError as error:
        raise InvalidFile.from_scoring_error(error, "domain labels") from None
    names = list(dict.fromkeys(labels))
    if len(names) > MAX_DOMAINS:
        raise InvalidFile(
            interpolate(
                _(
                    "domain labels: %(count)s different labels; a corpus has at "
                    "most %(MAX_DOMAINS)s domains."
                ),
                count=len(names),
                MAX_DOMAINS=MAX_DOMAINS,
            )
        )
    for name in names:
        if len(name) > MAX_LABEL:
            line = labels.index(name) + 1
            raise InvalidFile(
                interpolate(
                    _(
                        "domain labels: line %(line)s: the label has %(count)s "
                        "characters; at most %(MAX_LABEL)s."
                    ),
                    line=line,
                    count=len(name),
                    MAX_LABEL=MAX_LABEL,
                )
            )
    return labels


def store_domain_labels(corpus: Corpus, labels: tuple[str, ...]) -> None:
    """Put the labels on the corpus (file, checksum, domains), without saving the row."""
    text = "".join(f"{label}\n" for label in labels)
    stem = f"{corpus.bakeoff.slug}-{corpus.abbreviation.lower()}-domains"
    uploads.save_utf8(corpus.domain_labels, text, stem)
    corpus.domain_labels_checksum = scoring.labels_checksum(labels)
    counts: dict[str, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    corpus.domains = [{"domain": name, "lines": lines} for name, lines in counts.items()]


def do_set_domain_labels(
    corpus: Corpus, data: bytes, *, user: User | None = None, now: datetime | None = None
) -> Corpus:
    """Label the corpus's test lines with domains (replacing labels it had); every current score
    of the corpus gets its figures per domain, in a task queued after the commit."""
    now = now or clock.now()
    labels = check_domain_labels(data, corpus.encoding, uploads.read_stored_text(corpus.test_text))
    old = corpus.domain_labels_checksum
    with uploads.files_removed_on_failure(), transaction.atomic():
        store_domain_labels(corpus, labels)
        corpus.save(update_fields=["domain_labels", "domain_labels_checksum", "domains"])
        audit.record(
            corpus.bakeoff,
            audit.DOMAIN_LABELS_SET,
            Subject(DOMAIN_LABELS, {"corpus": corpus.abbreviation}),
            actor=user,
            now=now,
            checksum=corpus.domain_labels_checksum,
            previous=old,
            domains=corpus.domains,
        )
        signals.domain_labels_changed.send(sender=Corpus, corpus=corpus, now=now)
        enqueue_on_commit(SCORE_DOMAINS, corpus.pk)
    return corpus


def domain_labels_for(corpus: Corpus) -> tuple[str, ...] | None:
    """The corpus's labels, or None when it has none; read once per process and checksum."""
    if not corpus.domain_labels_checksum:
        return None
    return _labels(corpus.pk, corpus.domain_labels_checksum)


@lru_cache(maxsize=8)
def _labels(corpus_pk: int, checksum: str) -> tuple[str, ...]:
    corpus = Corpus.objects.get(pk=corpus_pk)
    return tuple(scoring.split_lines(uploads.read_stored_text(corpus.domain_labels)))


def figures_per_domain(
    run: scoring.ScoredRun, labels: tuple[str, ...] | None, checksum: str | None = None
) -> dict[str, Any] | None:
    """What ``Score.result`` stores of the domains, or None without labels (or when the gold has
    other lines than the labels: a gold with trailing empty lines the test text lacks)."""
    if labels is None:
        return None
    if len(labels) != run.gold.line_count:
        logger.warning(
            "%d domain labels for a gold of %d lines: no figures per domain",
            len(labels),
            run.gold.line_count,
        )
        return None
    return scoring.domain_figures(run, labels, checksum=checksum)


def labels_changed_meanwhile(corpus: Corpus) -> bool:
    """Whether the corpus's stored labels are no longer those of ``corpus`` as it was read."""
    return (
        Corpus.objects.filter(pk=corpus.pk)
        .exclude(domain_labels_checksum=corpus.domain_labels_checksum)
        .exists()
    )
