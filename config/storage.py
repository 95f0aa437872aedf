"""The local file system as the platform's storage, without half-written files.

Django's ``FileSystemStorage`` leaves whatever it wrote when a write fails (a full disk: a
truncated or empty file that no row names and nothing removes). Here a failed write removes its
own file before the error goes on, so that an upload refused by a full disk leaves nothing behind
(the view answers 503, bakeoff/views/errors.py). S3 storage needs no such care: an object that
failed to upload does not exist.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.core.files.storage import FileSystemStorage


class CleanFileSystemStorage(FileSystemStorage):
    def _save(self, name: str, content: Any) -> str:
        # The name is free (``get_available_name`` chose it, with a random part for every upload
        # of the platform): a file there after a failure is the one this write began.
        existed = self.exists(name)
        try:
            return str(super()._save(name, content))  # type: ignore[misc]
        except OSError:
            if not existed:
                with contextlib.suppress(OSError):
                    self.delete(name)
            raise
