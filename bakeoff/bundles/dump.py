"""A bakeoff's definition written as a bundle (the inverse of ``load_bundle``), and the next
edition: the definition dumped, its timetable moved, loaded as a new draft."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.db.models.fields.files import FieldFile

from .. import file_sets
from ..access import Account, User
from ..forms import TIMETABLE
from ..models import Bakeoff, Corpus, DevelopmentSet
from ..services import uploads
from .load import load_bundle
from .manifest import FORMAT, VERSION
from .source import MANIFEST, MemoryBundle

Files = dict[str, bytes]


def bundle_of(bakeoff: Bakeoff, *, with_corpora: bool = True) -> tuple[dict[str, Any], Files]:
    """The bakeoff's definition: the manifest and the files it names (each corpus's current gold,
    in the corpus's declared encoding). Sites, runs, scores and results are not part of it."""
    zone = bakeoff.zone
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "bakeoff": {
            "name": bakeoff.name,
            "slug": bakeoff.slug,
            "description": bakeoff.description,
            "auto_approve": bakeoff.auto_approve,
            "hide_scores_until_publication": bakeoff.hide_scores_until_publication,
        },
        "timetable": {
            "time_zone": bakeoff.time_zone,
            **{key: getattr(bakeoff, key).astimezone(zone).isoformat() for key in TIMETABLE},
            "grace_minutes": bakeoff.grace_minutes,
        },
        "phases": {
            "development": {
                "runs_per_day": bakeoff.development_runs_per_day,
                "table_public": bakeoff.development_table_public,
            },
            "post_bakeoff": {"runs_per_day": bakeoff.post_bakeoff_runs_per_day},
        },
        "corpora": [],
    }
    files: Files = {}
    if with_corpora:
        for corpus in bakeoff.corpora.order_by("abbreviation"):
            manifest["corpora"].append(_corpus(corpus, files))
    return manifest, files


def _corpus(corpus: Corpus, files: Files) -> dict[str, Any]:
    folder = corpus.abbreviation

    def put(field: FieldFile, name: str) -> str | None:
        if not field:
            return None
        path = f"{folder}/{name}"
        files[path] = uploads.read_stored_text(field).encode(corpus.encoding)
        return path

    gold = corpus.current_gold()
    assert gold is not None, corpus  # a corpus is created with its first gold
    entry: dict[str, Any] = {
        "abbreviation": corpus.abbreviation,
        "name": corpus.name,
        "institution": corpus.institution,
        "standard": corpus.standard,
        "encoding": corpus.encoding,
        "notes": corpus.notes,
        "gold": put(gold.file, "gold.txt"),
        "accept_differences": gold.accepted_at is not None,
        "test_text": put(corpus.test_text, "test.txt"),
    }
    for key, name in (
        ("training_words", "training-words.txt"),
        ("training_text", "training.txt"),
        ("domain_labels", "domains.txt"),
    ):
        path = put(getattr(corpus, key), name)
        if path is not None:
            entry[key] = path
    if corpus.licence:
        entry["licence"] = f"{folder}/licence.txt"
        files[entry["licence"]] = corpus.licence.encode("utf-8")
    development = DevelopmentSet.objects.filter(corpus=corpus).first()
    if development is not None:
        entry["development"] = {
            "text": put(development.text, "development-text.txt"),
            "gold": put(development.gold, "development-gold.txt"),
        }
    entry["tracks"] = [
        {"condition": t.condition, "max_runs": t.max_runs, "bucket_scheme": t.bucket_scheme}
        for t in corpus.tracks.order_by("condition")
    ]
    return entry


def manifest_bytes(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def zip_of(manifest: dict[str, Any], files: Files) -> bytes:
    """The bundle as a zip, the same bytes for the same definition (no dates of its own)."""
    return file_sets.zip_bytes({MANIFEST: manifest_bytes(manifest), **files}, first=MANIFEST)


def write_bundle(manifest: dict[str, Any], files: Files, out: Path) -> None:
    """A zip when ``out`` ends in .zip, else a folder (new, or empty)."""
    file_sets.write_files({MANIFEST: manifest_bytes(manifest), **files}, out, first=MANIFEST)


def shifted(manifest: dict[str, Any], days: int) -> dict[str, Any]:
    """The manifest with every date of its timetable moved by ``days``, at the same time of day
    in the bakeoff's zone (a deadline at 23:59 Beijing time stays at 23:59, across a change of
    summer time too)."""
    timetable = dict(manifest["timetable"])
    for key in TIMETABLE:
        instant = datetime.fromisoformat(timetable[key]).astimezone(
            Bakeoff(time_zone=timetable["time_zone"]).zone
        )
        timetable[key] = (instant + timedelta(days=days)).isoformat()
    return manifest | {"timetable": timetable}


def clone_bakeoff(
    bakeoff: Bakeoff,
    *,
    slug: str,
    shift_days: int,
    with_corpora: bool,
    by: User | None,
    name: str | None = None,
    organisers: Iterable[Account] | None = None,
    now: datetime | None = None,
) -> Bakeoff:
    """The next edition: a new draft with the bakeoff's definition (its settings, the phases'
    limits, and with ``with_corpora`` its corpora, tracks, run limits, data agreements and
    development sets), its timetable moved by ``shift_days``. Its organisers are the bakeoff's
    (and whoever clones it), unless ``organisers`` are given."""
    manifest, files = bundle_of(bakeoff, with_corpora=with_corpora)
    manifest = shifted(manifest, shift_days)
    if organisers is None:
        team = list(bakeoff.organisers.all())
        if isinstance(by, Account) and by not in team:
            team.append(by)
        organisers = team
    return load_bundle(
        MemoryBundle({**files, MANIFEST: manifest_bytes(manifest)}),
        by=by,
        organisers=organisers,
        slug=slug,
        name=name,
        now=now,
        origin="clone",
        cloned_from=bakeoff.slug,
        shift_days=shift_days,
    )
