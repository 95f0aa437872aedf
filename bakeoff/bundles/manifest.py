"""The bundle's manifest, ``bundle.json`` (docs/bundles.md): read, checked key by key, and turned
into a plan of what to create. Nothing here writes: every refusal names the path and key at fault.

Version 1 is read forever: a later version adds keys with defaults, so an older manifest still
loads; a manifest of a newer version than this platform's is refused.
"""

from __future__ import annotations

import hashlib
import json
import zoneinfo
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .. import services
from ..errors import Refused, interpolate, listing
from ..forms import TIMETABLE, BakeoffForm, CorpusDescriptionForm, TrackForm
from ..models import (
    Bakeoff,
    BucketScheme,
    Encoding,
    abbreviation_validator,
    validate_time_zone,
)
from ..services.corpora import CheckedCorpus
from .errors import BundleError
from .source import MANIFEST, BundleSource, is_inside

FORMAT = "bakeoff-bundle"
VERSION = 1

BAKEOFF_KEYS = ("name", "slug", "description", "auto_approve", "hide_scores_until_publication")
TIMETABLE_KEYS = ("time_zone", *TIMETABLE, "grace_minutes")
CORPUS_FILES = ("gold", "test_text", "training_words", "training_text", "domain_labels")
CORPUS_KEYS = (
    "abbreviation",
    "name",
    "institution",
    "standard",
    "encoding",
    "notes",
    "licence",
    *CORPUS_FILES,
    "accept_differences",
    "development",
    "tracks",
)
TRACK_KEYS = ("condition", "max_runs", "bucket_scheme")
# What the services say a corpus file is called in their refusals ("gold: line 3: ..."), and the
# manifest's key for it.
FILE_WORDS = {
    "gold": "gold",
    "test text": "test_text",
    "training word list": "training_words",
    "training text": "training_text",
    "domain labels": "domain_labels",
}


@dataclass(frozen=True)
class TrackPlan:
    condition: str
    max_runs: int
    bucket_scheme: str


@dataclass(frozen=True)
class CorpusPlan:
    path: str
    abbreviation: str
    name: str
    institution: str
    standard: str
    encoding: str
    notes: str
    licence: str
    files: services.CorpusFiles
    checked: CheckedCorpus
    accept_differences: bool
    development: tuple[bytes | None, bytes] | None
    tracks: list[TrackPlan]


@dataclass
class Plan:
    """A checked bundle: the bakeoff (unsaved) and its corpora, ready to be created."""

    bakeoff: Bakeoff
    corpora: list[CorpusPlan] = field(default_factory=list)
    checksum: str = ""
    version: int = VERSION


class Node:
    """One object of the manifest at ``path``; its readers refuse a wrong value by its key."""

    def __init__(self, value: object, path: str, keys: tuple[str, ...]) -> None:
        if not isinstance(value, dict):
            raise BundleError(path, _("not an object"))
        self.value: dict[str, Any] = value
        self.path = path
        for key in value:
            if key not in keys:
                raise BundleError(
                    self.at(key),
                    interpolate(
                        _("not a key of this format (the keys are %(keys)s)"),
                        keys=listing(keys),
                    ),
                )

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, *, required: bool) -> object:
        if key not in self.value or self.value[key] is None:
            if required:
                raise BundleError(self.at(key), _("missing"))
            return None
        return self.value[key]

    def text(self, key: str, *, required: bool = False, default: str = "") -> str:
        value = self.raw(key, required=required)
        if value is None:
            return default
        if not isinstance(value, str):
            raise BundleError(self.at(key), _("not text"))
        return value

    def integer(self, key: str, default: int) -> int:
        value = self.raw(key, required=False)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise BundleError(self.at(key), _("not a whole number"))
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.raw(key, required=False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise BundleError(self.at(key), _("not true or false"))
        return value

    def instant(self, key: str) -> datetime:
        value = self.raw(key, required=True)
        problem = _("not an instant: write it with its offset, as 2026-03-01T09:00:00+08:00")
        if not isinstance(value, str):
            raise BundleError(self.at(key), problem)
        try:
            instant = datetime.fromisoformat(value)
        except ValueError:
            raise BundleError(self.at(key), problem) from None
        if instant.tzinfo is None:
            raise BundleError(self.at(key), problem)
        return instant

    def child(self, key: str, keys: tuple[str, ...], *, required: bool = False) -> Node | None:
        value = self.raw(key, required=required)
        return None if value is None else Node(value, self.at(key), keys)

    def children(self, key: str, keys: tuple[str, ...]) -> Iterator[Node]:
        value = self.raw(key, required=False)
        if value is None:
            return
        if not isinstance(value, list):
            raise BundleError(self.at(key), _("not a list"))
        for index, item in enumerate(value):
            yield Node(item, f"{self.at(key)}[{index}]", keys)


class Files:
    """The bundle's files, read when the manifest names them."""

    def __init__(self, source: BundleSource) -> None:
        self.source = source
        self.names = source.names()

    def read(self, node: Node, key: str, *, required: bool = False) -> bytes | None:
        name = node.text(key, required=required)
        if not name:
            return None
        if not is_inside(name):
            raise BundleError(node.at(key), _("a path inside the bundle: relative, without .."))
        if name not in self.names:
            raise BundleError(
                node.at(key),
                interpolate(_("file %(name)s is not in the bundle"), name=repr(name)),
            )
        try:
            return self.source.read(name)
        except BundleError as error:  # too large: said of the key that names the file
            raise BundleError(node.at(key), error.problem) from None
        except KeyError:
            raise BundleError(
                node.at(key),
                interpolate(_("file %(name)s is not in the bundle"), name=repr(name)),
            ) from None

    def text(self, node: Node, key: str) -> str:
        data = self.read(node, key)
        if data is None:
            return ""
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BundleError(node.at(key), _("the file is not UTF-8 text")) from None


def read_manifest(source: BundleSource) -> tuple[dict[str, Any], str]:
    """The manifest's JSON and its checksum; refused when it is not a bundle this platform reads."""
    if MANIFEST not in source.names():
        raise BundleError(MANIFEST, _("missing"))
    data = source.read(MANIFEST)
    try:
        manifest = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        raise BundleError(
            MANIFEST, interpolate(_("not JSON: %(error)s"), error=str(error))
        ) from None
    if not isinstance(manifest, dict):
        raise BundleError(MANIFEST, _("not an object"))
    if manifest.get("format") != FORMAT:
        raise BundleError("format", interpolate(_("one of %(choices)s"), choices=repr(FORMAT)))
    version = manifest.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise BundleError("version", _("not a whole number"))
    if version > VERSION:
        raise BundleError(
            "version",
            interpolate(
                _("version %(version)s is newer than this platform reads (%(newest)s)"),
                version=version,
                newest=VERSION,
            ),
        )
    return manifest, "sha256:" + hashlib.sha256(data).hexdigest()


# Where each field of the bakeoff's form stands in the manifest.
FORM_PATHS = {
    **{key: f"bakeoff.{key}" for key in BAKEOFF_KEYS},
    **{key: f"timetable.{key}" for key in TIMETABLE_KEYS},
    "development_runs_per_day": "phases.development.runs_per_day",
    "development_table_public": "phases.development.table_public",
    "post_bakeoff_runs_per_day": "phases.post_bakeoff.runs_per_day",
}


def _first_error(form: Any, paths: Mapping[str, str], fallback: str) -> BundleError:
    """The form's first error, at the manifest's path of its field (a field the manifest does not
    name, or the form as a whole, at ``fallback``)."""
    for name, errors in form.errors.items():
        path = paths.get(name) or (fallback if name == "__all__" else f"{fallback}.{name}")
        return BundleError(path, errors[0])
    raise AssertionError("the form has no error")  # pragma: no cover


def check_bakeoff(top: Node, *, slug: str | None, name: str | None) -> Bakeoff:
    """The bakeoff of the manifest, checked by the organiser's own form (``BakeoffForm``), with
    the timetable's instants exactly as written."""
    about = top.child("bakeoff", BAKEOFF_KEYS, required=True)
    timetable = top.child("timetable", TIMETABLE_KEYS, required=True)
    phases = top.child("phases", ("development", "post_bakeoff")) or Node({}, "phases", ())
    development = phases.child("development", ("runs_per_day", "table_public"))
    post = phases.child("post_bakeoff", ("runs_per_day",))
    assert about is not None and timetable is not None
    zone_name = timetable.text("time_zone", required=True)
    instants = {key: timetable.instant(key) for key in TIMETABLE}
    data: dict[str, Any] = {
        "name": name if name is not None else about.text("name", required=True),
        "slug": slug if slug is not None else about.text("slug", required=True),
        "description": about.text("description"),
        "time_zone": zone_name,
        "grace_minutes": timetable.integer("grace_minutes", 0),
    }
    for key in ("auto_approve", "hide_scores_until_publication"):
        if about.flag(key):
            data[key] = "on"
    defaults = Bakeoff()
    data["development_runs_per_day"] = (
        development.integer("runs_per_day", defaults.development_runs_per_day)
        if development
        else defaults.development_runs_per_day
    )
    if development and development.flag("table_public"):
        data["development_table_public"] = "on"
    data["post_bakeoff_runs_per_day"] = (
        post.integer("runs_per_day", defaults.post_bakeoff_runs_per_day)
        if post
        else defaults.post_bakeoff_runs_per_day
    )
    try:
        local = {
            key: instant.astimezone(_zone(zone_name)).strftime("%Y-%m-%dT%H:%M:%S")
            for key, instant in instants.items()
        }
    except ValidationError as error:
        raise BundleError("timetable.time_zone", error.messages[0]) from None
    form = BakeoffForm(data | local)
    if not form.is_valid():
        raise _first_error(form, FORM_PATHS, "bakeoff")
    bakeoff = form.save(commit=False)
    for key, instant in instants.items():  # to the microsecond, whatever the zone's folds
        setattr(bakeoff, key, instant)
    return bakeoff


def _zone(name: str) -> zoneinfo.ZoneInfo:
    validate_time_zone(name)
    return zoneinfo.ZoneInfo(name)


def check_corpus(node: Node, files: Files) -> CorpusPlan:
    abbreviation = node.text("abbreviation", required=True)
    try:
        abbreviation_validator(abbreviation)
    except ValidationError as error:
        raise BundleError(node.at("abbreviation"), error.messages[0]) from None
    description = CorpusDescriptionForm(
        {
            "name": node.text("name", required=True),
            "institution": node.text("institution", required=True),
            "standard": node.text("standard"),
        }
    )
    if not description.is_valid():
        raise _first_error(description, {k: node.at(k) for k in description.fields}, node.path)
    encoding = node.text("encoding", default=Encoding.UTF8)
    if encoding not in Encoding.values:
        raise BundleError(
            node.at("encoding"),
            interpolate(_("one of %(choices)s"), choices=listing(Encoding.values)),
        )
    tracks: list[TrackPlan] = []
    for track in node.children("tracks", TRACK_KEYS):
        form = TrackForm(
            {
                "condition": track.text("condition", required=True),
                "max_runs": track.integer("max_runs", 2),
                "bucket_scheme": track.text("bucket_scheme", default=BucketScheme.DEFAULT),
            }
        )
        if not form.is_valid():
            raise _first_error(form, {k: track.at(k) for k in TRACK_KEYS}, track.path)
        plan = TrackPlan(**{key: form.cleaned_data[key] for key in TRACK_KEYS})
        if any(t.condition == plan.condition for t in tracks):
            raise BundleError(
                track.at("condition"),
                interpolate(_("%(value)s appears twice"), value=plan.condition),
            )
        tracks.append(plan)
    corpus_files = services.CorpusFiles(
        gold=files.read(node, "gold", required=True) or b"",
        test_text=files.read(node, "test_text"),
        training_words=files.read(node, "training_words"),
        training_text=files.read(node, "training_text"),
        domain_labels=files.read(node, "domain_labels"),
    )
    development = None
    dev = node.child("development", ("text", "gold"))
    if dev is not None:
        development = (files.read(dev, "text"), files.read(dev, "gold", required=True) or b"")
    licence = files.text(node, "licence")
    try:  # the platform's own checks of a corpus's files (docs/validation.md), before any write
        checked = services.check_corpus_files(corpus_files, encoding)
    except Refused as refusal:
        raise BundleError(_file_path(node, refusal), refusal.message) from None
    return CorpusPlan(
        path=node.path,
        abbreviation=abbreviation,
        name=description.cleaned_data["name"],
        institution=description.cleaned_data["institution"],
        standard=description.cleaned_data["standard"],
        encoding=encoding,
        notes=node.text("notes"),
        licence=licence,
        files=corpus_files,
        checked=checked,
        accept_differences=node.flag("accept_differences"),
        development=development,
        tracks=tracks,
    )


def _file_path(node: Node, refusal: Refused) -> str:
    """The key of the file a service's refusal is about ("gold: line 3: ..."), or the corpus."""
    for words, key in FILE_WORDS.items():
        if refusal.detail.startswith(words + ":"):
            return node.at(key)
    return node.path


def check_manifest(
    source: BundleSource, *, slug: str | None = None, name: str | None = None
) -> Plan:
    """Every key and file of the bundle checked, nothing written: the plan, or a BundleError."""
    manifest, checksum = read_manifest(source)
    top = Node(manifest, "", ("format", "version", "bakeoff", "timetable", "phases", "corpora"))
    plan = Plan(check_bakeoff(top, slug=slug, name=name), checksum=checksum)
    plan.version = int(manifest["version"])
    files = Files(source)
    seen: dict[str, str] = {}
    for node in top.children("corpora", CORPUS_KEYS):
        corpus = check_corpus(node, files)
        key = corpus.abbreviation.lower()
        if key in seen:
            raise BundleError(
                node.at("abbreviation"),
                interpolate(_("%(value)s appears twice"), value=corpus.abbreviation),
            )
        seen[key] = node.path
        plan.corpora.append(corpus)
    return plan
