"""The archive's format (docs/archives.md): its name, its versions, its manifest and checksums."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from bakeoff.errors import Refused, interpolate

FORMAT = "bakeoff-archive"
# The version written; every version listed is read by this release and every later one.
VERSION = 1
KNOWN_VERSIONS = (1,)
MANIFEST = "archive.json"
ORGANISERS = "organisers"
PUBLIC = "public"
VARIANTS = (ORGANISERS, PUBLIC)
# The parts of an organisers' archive (besides the manifest and the bundle).
RECORDS = "records"  # records/<app.Model>.jsonl: the rows, one JSON object a line
ACCOUNTS = "accounts.jsonl"  # the accounts the rows name: username, e-mail, names
FILES = "files"  # files/<storage name>: every stored file a row names
BUNDLE = "bundle"  # bundle/: the definition, loadable with load_bakeoff (docs/bundles.md)


class ArchiveError(Refused):
    """An archive refused, naming the file or key at fault and why."""

    code = "bad_archive"

    def __init__(self, path: str, problem: StrOrPromise) -> None:
        super().__init__(
            interpolate(_("%(path)s: %(problem)s"), path=path, problem=problem), path=path
        )
        self.path = path
        self.problem = problem


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def manifest_checksum(manifest: dict[str, Any]) -> str:
    """The manifest's own checksum: of its canonical JSON without the ``checksum`` key."""
    return sha256(canonical({k: v for k, v in manifest.items() if k != "checksum"}))


def manifest_bytes(manifest: dict[str, Any]) -> bytes:
    return (json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()
