"""Loading a bundle: a new draft bakeoff made through the services, so that every rule applies
and every step is in the audit trail. All or nothing: one transaction, and the files stored on the
way removed when it fails."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction

from .. import clock, services
from ..access import Account, User
from ..errors import Refused
from ..models import Bakeoff, BucketScheme, Corpus
from ..services import uploads
from ..services.reference_runs import reference_texts
from .errors import BundleError
from .manifest import CorpusPlan, Plan, check_manifest
from .source import BundleSource


def load_bundle(
    source: BundleSource,
    *,
    by: User | None,
    organisers: Iterable[Account] = (),
    slug: str | None = None,
    name: str | None = None,
    now: datetime | None = None,
    origin: str = "bundle",
    **details: Any,
) -> Bakeoff:
    """Create the bundle's bakeoff as a draft (``slug`` and ``name`` replace the bundle's own), or
    refuse the bundle with a BundleError naming the path and key at fault, leaving nothing."""
    now = now or clock.now()
    plan = check_manifest(source, slug=slug, name=name)
    # The files the services store are removed again if anything fails, the bundle's own
    # refusals included: the load leaves nothing (uploads.files_removed_on_failure).
    with uploads.files_removed_on_failure(), transaction.atomic():
        return _create(plan, by=by, organisers=organisers, now=now, origin=origin, **details)


def _create(
    plan: Plan,
    *,
    by: User | None,
    organisers: Iterable[Account],
    now: datetime,
    origin: str,
    **details: Any,
) -> Bakeoff:
    bakeoff = services.do_create_bakeoff(
        plan.bakeoff,
        organisers=organisers,
        by=by,
        now=now,
        source=origin,
        bundle_checksum=plan.checksum,
        bundle_version=plan.version,
        **details,
    )
    for corpus in plan.corpora:
        try:
            created = _create_corpus(bakeoff, corpus, by=by, now=now)
        except BundleError:
            raise
        except Refused as refusal:
            raise BundleError(corpus.path, refusal.message) from None
        if corpus.development is not None:
            text, gold = corpus.development
            try:
                services.do_add_development_set(created, text=text, gold=gold, by=by, now=now)
            except Refused as refusal:
                raise BundleError(f"{corpus.path}.development", refusal.message) from None
    return bakeoff


def _create_corpus(bakeoff: Bakeoff, plan: CorpusPlan, *, by: User | None, now: datetime) -> Corpus:
    """The corpus and its tracks: in one call when its tracks share their settings (as the
    organiser's page makes them), else each track with its own."""
    limits = {track.max_runs for track in plan.tracks}
    uniform = len(limits) <= 1 and all(
        track.bucket_scheme == BucketScheme.DEFAULT for track in plan.tracks
    )
    corpus = services.do_create_corpus(
        bakeoff,
        plan.files,
        name=plan.name,
        abbreviation=plan.abbreviation,
        institution=plan.institution,
        standard=plan.standard,
        encoding=plan.encoding,
        conditions=[track.condition for track in plan.tracks] if uniform else (),
        max_runs=limits.pop() if uniform and limits else 2,
        notes=plan.notes,
        licence=plan.licence,
        user=by,
        accept_differences=plan.accept_differences,
        now=now,
    )
    if not uniform:
        checked = plan.checked
        texts = reference_texts(checked.test_text, checked.gold_text, checked.dictionary)
        for track in plan.tracks:
            services.do_add_track(
                corpus,
                track.condition,
                max_runs=track.max_runs,
                bucket_scheme=track.bucket_scheme,
                by=by,
                now=now,
                texts=texts,
            )
    return corpus
