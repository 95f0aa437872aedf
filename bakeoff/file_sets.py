"""A set of named files read from a folder, a zip or memory: what a bundle (bakeoff/bundles/) and
an organisers' archive (leaderboard/archive/) are read from.

Files are named by relative POSIX paths (``PKU/gold.txt``). A folder never hands out a file that
a link leads to outside it.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol, TypeVar


class FileSet(Protocol):
    def names(self) -> frozenset[str]: ...

    def read(self, name: str) -> bytes: ...


class MemoryFiles:
    """Files held in memory (made by the platform: a clone, the icwb2 import, a test)."""

    def __init__(self, files: Mapping[str, bytes]) -> None:
        self.files = dict(files)

    def names(self) -> frozenset[str]:
        return frozenset(self.files)

    def read(self, name: str) -> bytes:
        return self.files[name]


class FolderFiles:
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


class ZipFiles:
    """The files of a zip, read from inside ``prefix`` (a folder zipped whole) when one is given."""

    def __init__(self, archive: zipfile.ZipFile, prefix: str = "") -> None:
        self.archive = archive
        self.prefix = prefix
        self.members = {
            info.filename[len(prefix) :]: info
            for info in archive.infolist()
            if not info.is_dir() and info.filename.startswith(prefix)
        }

    def names(self) -> frozenset[str]:
        return frozenset(self.members)

    def read(self, name: str) -> bytes:
        return self.archive.read(self.members[name])


Files = TypeVar("Files", bound=FileSet)


def open_folder_or_zip(
    path: Path,
    read_zip: Callable[[zipfile.ZipFile], Files],
    refuse: Callable[[], Exception],
) -> FolderFiles | Files:
    """The files of a folder, or of a zip file read by ``read_zip``; ``refuse()`` is raised for
    anything else."""
    if path.is_dir():
        return FolderFiles(path)
    try:
        return read_zip(zipfile.ZipFile(path))
    except (zipfile.BadZipFile, OSError):
        raise refuse() from None


# A zip's members carry this date, so that the same files make the same bytes.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def zip_bytes(files: Mapping[str, bytes], *, first: str | None = None) -> bytes:
    """The files as a zip: ``first`` (a manifest) first, the rest by name, no dates of their own."""
    names = sorted(name for name in files if name != first)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in [first, *names] if first is not None else names:
            member = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            member.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(member, files[name])
    return buffer.getvalue()


def write_files(files: Mapping[str, bytes], out: Path, *, first: str) -> None:
    """A zip when ``out`` ends in .zip (see ``zip_bytes``), else a folder, new or empty."""
    if out.suffix.lower() == ".zip":
        out.write_bytes(zip_bytes(files, first=first))
        return
    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    for name, data in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
