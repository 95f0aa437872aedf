"""Archives (docs/archives.md): a bakeoff whole, to keep, deposit or move to another instance.

``archive_files`` writes one (the organisers' variant, or the public one after publication);
``import_archive`` recreates the bakeoff of an organisers' archive in another database, or refuses
the archive naming the file or key at fault and leaves nothing.
"""

from .export import archive_files, archive_zip, write_archive
from .format import FORMAT, KNOWN_VERSIONS, MANIFEST, PUBLIC, VERSION, ArchiveError
from .importing import ImportReport, import_archive, open_archive

__all__ = [
    "FORMAT",
    "KNOWN_VERSIONS",
    "MANIFEST",
    "PUBLIC",
    "VERSION",
    "ArchiveError",
    "ImportReport",
    "archive_files",
    "archive_zip",
    "import_archive",
    "open_archive",
    "write_archive",
]
