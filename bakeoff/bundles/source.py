"""Where a bundle's files are read from: a folder, a zip (a file or uploaded bytes), or memory.

A bundle names its files by relative POSIX paths (``PKU/gold.txt``); a path that is absolute or
climbs out with ``..`` names nothing. A zip whose files all sit in one folder (a folder zipped
whole) is read from inside that folder.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path, PurePosixPath

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ..errors import interpolate
from ..file_sets import FileSet, MemoryFiles, ZipFiles, open_folder_or_zip
from .errors import BundleError

MANIFEST = "bundle.json"
# A zip's files are read up to this many times the upload cap, all together: a zip bomb stops
# there.
ZIP_GROWTH = 8


BundleSource = FileSet
MemoryBundle = MemoryFiles


def is_inside(name: str) -> bool:
    """A relative path that stays inside the bundle."""
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


class ZipBundle(ZipFiles):
    """A bundle's zip: read from inside its one folder when it was zipped whole, and no further
    than ``ZIP_GROWTH`` times the upload cap."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        names = {info.filename for info in archive.infolist() if not info.is_dir()}
        prefix = ""
        if MANIFEST not in names:
            nested = [name for name in names if name.count("/") == 1 and name.endswith(MANIFEST)]
            if len(nested) == 1 and nested[0].split("/")[1] == MANIFEST:
                prefix = nested[0][: -len(MANIFEST)]
        super().__init__(archive, prefix)
        self.read_bytes = 0

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
    return open_folder_or_zip(
        path, ZipBundle, lambda: BundleError(str(path), _("not a folder or a zip file"))
    )
