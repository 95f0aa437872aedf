"""Importing the SIGHAN 2005 release (``icwb2-data``) as the bakeoff ``sighan2005``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from . import bundles, clock, services
from .models import Bakeoff, Corpus

SLUG = "sighan2005"
ZONE = "Asia/Shanghai"


@dataclass(frozen=True)
class Icwb2Corpus:
    name: str
    abbreviation: str
    institution: str
    standard: str
    prefix: str


CORPORA = [
    Icwb2Corpus("Academia Sinica", "AS", "Academia Sinica", "AS (traditional)", "as"),
    Icwb2Corpus(
        "City University of Hong Kong",
        "CITYU",
        "City University of Hong Kong",
        "CityU (traditional)",
        "cityu",
    ),
    Icwb2Corpus("Microsoft Research", "MSR", "Microsoft Research Asia", "MSR (simplified)", "msr"),
    Icwb2Corpus("Peking University", "PKU", "Peking University", "PKU (simplified)", "pku"),
]

NOTES = (
    "BASE and TOP are character-level forward maximum matching (/docs/measures/maxmatch.md). "
    "The figures published "
    "for SIGHAN 2005 ran mwseg.pl on the UTF-8 files, where its two-byte step cuts characters "
    "apart, so they differ from ours (for example msr baseline 0.933 published, 0.937 here)."
)


def find(folder: Path, *names: str) -> Path | None:
    for name in names:
        if (folder / name).is_file():
            return folder / name
    return None


def corpus_files(root: Path, corpus: Icwb2Corpus) -> services.CorpusFiles | None:
    p = corpus.prefix
    gold = find(root / "gold", f"{p}_test_gold.utf8", f"{p}_testing_gold.utf8")
    test = find(root / "testing", f"{p}_test.utf8", f"{p}_testing.utf8")
    if gold is None or test is None:
        return None
    words = find(root / "gold", f"{p}_training_words.utf8")
    training = find(root / "training", f"{p}_training.utf8")
    return services.CorpusFiles(
        gold=gold.read_bytes(),
        test_text=test.read_bytes(),
        training_words=words.read_bytes() if words else None,
        training_text=training.read_bytes() if training else None,
    )


def add_corpus(
    bakeoff: Bakeoff,
    root: Path,
    spec: Icwb2Corpus,
    *,
    conditions: tuple[str, ...],
    **options: Any,
) -> Corpus | None:
    """The release's corpus ``spec`` added to ``bakeoff`` under the spec's name, abbreviation and
    institution (``options`` may give others, and what else ``do_create_corpus`` takes); None when
    its files are not under ``root``."""
    files = corpus_files(root, spec)
    if files is None:
        return None
    names = {"name": spec.name, "abbreviation": spec.abbreviation, "institution": spec.institution}
    return services.do_create_corpus(bakeoff, files, conditions=conditions, **(names | options))


def manifest_corpus(
    root: Path, spec: Icwb2Corpus, files: dict[str, bytes], **options: Any
) -> dict[str, Any] | None:
    """The release's corpus ``spec`` as a bundle's corpus (its files put in ``files``), or None
    when its gold and test text are not under ``root``."""
    p = spec.prefix
    found = {
        "gold": find(root / "gold", f"{p}_test_gold.utf8", f"{p}_testing_gold.utf8"),
        "test_text": find(root / "testing", f"{p}_test.utf8", f"{p}_testing.utf8"),
        "training_words": find(root / "gold", f"{p}_training_words.utf8"),
        "training_text": find(root / "training", f"{p}_training.utf8"),
    }
    if found["gold"] is None or found["test_text"] is None:
        return None
    entry: dict[str, Any] = {
        "abbreviation": spec.abbreviation,
        "name": spec.name,
        "institution": spec.institution,
        "standard": spec.standard,
        "encoding": "utf-8",
        **options,
    }
    for key, path in found.items():
        if path is not None:
            name = f"{path.parent.name}/{path.name}"
            files[name] = path.read_bytes()
            entry[key] = name
    return entry


def import_icwb2(
    root: Path,
    *,
    accept_differences: bool = True,
    max_runs: int = 2,
    now: datetime | None = None,
    report: Callable[[Corpus], None] = lambda corpus: None,
    standing: bool = False,
) -> Bakeoff:
    """Create ``sighan2005`` with the four corpora found under ``root``, open for runs now; or,
    ``standing``, with its timetable over, to be published at once as the standing
    leaderboard: the command then runs ``open_standing``
    (docs/phases.md#the-standing-sighan-2005-leaderboard). The release is made into a bundle
    (docs/bundles.md) and loaded like any other."""
    now = now or clock.now()
    if standing:
        # The timetable is over: runs are accepted only as post-bakeoff runs.
        times = {
            "registration_opens": now - timedelta(days=4),
            "registration_closes": now - timedelta(days=3),
            "training_released": now - timedelta(days=4),
            "test_released": now - timedelta(days=2),
            "submission_deadline": now - timedelta(days=1),
        }
    else:
        times = {
            "registration_opens": now - timedelta(days=1),
            "registration_closes": now + timedelta(days=14),
            "training_released": now - timedelta(days=1),
            "test_released": now - timedelta(minutes=1),
            "submission_deadline": now + timedelta(days=14),
        }
    if not (root / "gold").is_dir() or not (root / "testing").is_dir():
        raise FileNotFoundError(
            f"{root} has no gold/ and testing/ folders of an icwb2-data release"
        )
    zone = ZoneInfo(ZONE)
    files: dict[str, bytes] = {}
    corpora = [
        manifest_corpus(
            root,
            spec,
            files,
            notes=NOTES,
            accept_differences=accept_differences,
            tracks=[{"condition": c, "max_runs": max_runs} for c in ("closed", "open")],
        )
        for spec in CORPORA
    ]
    manifest = {
        "format": bundles.FORMAT,
        "version": bundles.VERSION,
        "bakeoff": {
            "name": "Second International Chinese Word Segmentation Bakeoff (SIGHAN 2005)",
            "slug": SLUG,
            "description": "Imported from the icwb2-data release. " + NOTES,
        },
        "timetable": {
            "time_zone": ZONE,
            **{key: value.astimezone(zone).isoformat() for key, value in times.items()},
        },
        "corpora": [corpus for corpus in corpora if corpus is not None],
    }
    files[bundles.MANIFEST] = bundles.manifest_bytes(manifest)
    bakeoff = bundles.load_bundle(bundles.MemoryBundle(files), by=None, now=now, origin="icwb2")
    for corpus in bakeoff.corpora.order_by("abbreviation"):
        report(corpus)
    if bakeoff.corpora.exists():
        services.do_open_bakeoff(bakeoff, by=None, now=now)
    return bakeoff
