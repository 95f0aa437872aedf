"""Where a bundle's files are read from: a folder, a zip (a file or uploaded bytes), or memory.

A bundle names its files by relative POSIX paths (``PKU/gold.txt``); a path that is absolute or
climbs out with ``..`` names nothing. A zip whose files all sit in one folder (a folder zipped
whole) is read from inside that folder.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Protocol

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ..errors import interpolate
from .errors import BundleError

MANIFEST = "bundle.json"
# A zip's files are read up to this many times the upload cap, all together: a zip bomb stops
# there.
ZIP_GROWTH = 8


class BundleSource(Protocol):
    def names(self) -> frozenset[str]: ...

    def read(self, name: str) -> bytes: ...


def is_inside(name: str) -> bool:
    """A relative path that stays inside the bundle."""
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


class MemoryBundle:
    """Files held in memory (a bundle made by the platform: icwb2, a clone)."""

    def __init__(self, files: Mapping[str, bytes]) -> None:
        self.files = dict(files)

    def names(self) -> frozenset[str]:
        return frozenset(self.files)

    def read(self, name: str) -> bytes:
        return self.files[name]


class FolderBundle:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def names(self) -> frozenset[str]:
        return frozenset(
            path.relative_to(self.root).as_posix()
            for path in self.root.rglob("*")
            if path.is_file()
        )

    def read(self, name: str) -> bytes:
        path = (self.root / name).resolve()
        if not path.is_relative_to(self.root):  # a link that leads out of the folder
            raise KeyError(name)
        return path.read_bytes()


class ZipBundle:
    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.read_bytes = 0
        members = [info for info in archive.infolist() if not info.is_dir()]
        names = {info.filename for info in members}
        self.prefix = ""
        if MANIFEST not in names:
            nested = [name for name in names if name.count("/") == 1 and name.endswith(MANIFEST)]
            if len(nested) == 1 and nested[0].split("/")[1] == MANIFEST:
                self.prefix = nested[0][: -len(MANIFEST)]
        self.members = {
            info.filename[len(self.prefix) :]: info
            for info in members
            if info.filename.startswith(self.prefix)
        }

    def names(self) -> frozenset[str]:
        return frozenset(self.members)

    def read(self, name: str) -> bytes:
        info = self.members[name]
        cap = ZIP_GROWTH * settings.BAKEOFF_MAX_UPLOAD_BYTES
        counted = name != MANIFEST  # read first, by itself, under the same cap
        with self.archive.open(info) as member:
            data = member.read(cap - (self.read_bytes if counted else 0) + 1)
        self.read_bytes += len(data) if counted else 0
        if self.read_bytes > cap or len(data) > cap:
            raise BundleError(
                name,
                interpolate(
                    _("the bundle's files add up to more than %(cap)s bytes"),
                    cap=format(cap, ","),
                ),
            )
        return data


def zip_bundle(data: bytes) -> ZipBundle:
    """A bundle uploaded as a zip."""
    try:
        return ZipBundle(zipfile.ZipFile(io.BytesIO(data)))
    except (zipfile.BadZipFile, OSError):
        raise BundleError("bundle", _("not a zip file")) from None


def open_bundle(path: Path) -> BundleSource:
    """A bundle on disk: a folder, or a zip file."""
    if path.is_dir():
        return FolderBundle(path)
    try:
        return ZipBundle(zipfile.ZipFile(path))
    except (zipfile.BadZipFile, OSError):
        raise BundleError(str(path), _("not a folder or a zip file")) from None
