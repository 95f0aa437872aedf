"""The worked example of a bundle (tests/bakeoff/bundle_example, docs/bundles.md) and what the
bundle tests (tests/bakeoff/test_bundle_*.py) build from it: its files and manifest, a bundle in
memory or zipped, and what a refused bundle must leave as it was (the rows it would write, the
stored files).
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from django.conf import settings

from bakeoff import bundles
from bakeoff.models import (
    AuditEntry,
    Bakeoff,
    Corpus,
    DevelopmentSet,
    GoldVersion,
    Submission,
    Track,
)

EXAMPLE = Path(__file__).parent / "bundle_example"


def example_files() -> dict[str, bytes]:
    return {
        path.relative_to(EXAMPLE).as_posix(): path.read_bytes()
        for path in EXAMPLE.rglob("*")
        if path.is_file()
    }


def example_manifest() -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((EXAMPLE / "bundle.json").read_text("utf-8"))
    return manifest


def bundle(manifest: dict[str, Any], files: dict[str, bytes] | None = None) -> bundles.MemoryBundle:
    files = dict(example_files() if files is None else files)
    files[bundles.MANIFEST] = json.dumps(manifest).encode()
    return bundles.MemoryBundle(files)


def zipped(files: dict[str, bytes], prefix: str = "") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(prefix + name, data)
    return buffer.getvalue()


def stored_files() -> list[Path]:
    return sorted(p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file())


MODELS = (Bakeoff, Corpus, Track, GoldVersion, Submission, DevelopmentSet, AuditEntry)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}
