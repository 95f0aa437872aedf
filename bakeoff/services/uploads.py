"""Reading uploads: a size cap while reading, checksums, strict decoding."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

from django.conf import settings
from django.core.files.base import ContentFile
from django.db.models.fields.files import FieldFile
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import scoring
from bakeoff.errors import interpolate

from ..errors import InvalidFile, UploadTooLarge

Readable = bytes | Iterable[bytes]


class Chunked(Protocol):
    def chunks(self, chunk_size: int | None = ...) -> Iterable[bytes]: ...


def read_capped(source: bytes | Chunked, *, limit: int | None = None) -> bytes:
    """The bytes of an upload, refusing it as soon as it grows past ``limit``."""
    cap = settings.BAKEOFF_MAX_UPLOAD_BYTES if limit is None else limit
    if isinstance(source, bytes):
        if len(source) > cap:
            raise _too_large(cap)
        return source
    declared = getattr(source, "size", None)
    if isinstance(declared, int) and declared > cap:
        raise _too_large(cap)
    parts: list[bytes] = []
    total = 0
    for chunk in source.chunks():
        total += len(chunk)
        if total > cap:
            raise _too_large(cap)
        parts.append(chunk)
    return b"".join(parts)


# Room for the multipart envelope (boundaries, headers, other fields) around one file.
ENVELOPE_BYTES = 64 << 10


def check_request_size(meta: Mapping[str, object], *, limit: int | None = None) -> None:
    """Refuse a request whose declared body is too large, before Django receives the upload."""
    cap = settings.BAKEOFF_MAX_UPLOAD_BYTES if limit is None else limit
    try:
        length = int(str(meta.get("CONTENT_LENGTH") or 0))
    except ValueError:
        length = 0
    if length > cap + ENVELOPE_BYTES:
        raise _too_large(cap)


# A run is the test text with whitespace between its words: even a separator of several bytes after
# every character leaves it well under eight times the text. A file beyond that is not a run of the
# track (the training text, say), and is refused before it is read, so that memory stays bounded.
PLAUSIBLE_GROWTH = 8
PLAUSIBLE_SLACK = 8 << 10


def read_run(source: bytes | Chunked, test_text_bytes: int, *, text: StrOrPromise) -> bytes:
    """The bytes of a run, refused unread when they are more than a run of a text of
    ``test_text_bytes`` could be, or more than the upload cap. ``text`` names that text in the
    refusal: the run's phase says which (``phase_table.PhaseFacts.text``)."""
    cap = settings.BAKEOFF_MAX_UPLOAD_BYTES
    plausible = PLAUSIBLE_GROWTH * test_text_bytes + PLAUSIBLE_SLACK
    if plausible >= cap:
        return read_capped(source, limit=cap)
    try:
        return read_capped(source, limit=plausible)
    except UploadTooLarge:
        raise InvalidFile(
            interpolate(
                _(
                    "The file is larger than %(plausible)s bytes, more than any "
                    "segmentation of %(segmented)s (%(test_text_bytes)s "
                    "bytes) can be, even with a separator after every character. "
                    "Is it the run for this track?"
                ),
                segmented=text,
                plausible=format(plausible, ","),
                test_text_bytes=format(test_text_bytes, ","),
            ),
            limit=plausible,
            test_text_bytes=test_text_bytes,
        ) from None


def _too_large(cap: int) -> UploadTooLarge:
    return UploadTooLarge(
        interpolate(_("The file is larger than the limit of %(cap)s bytes."), cap=format(cap, ",")),
        limit=cap,
    )


def checksum(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


# The encodings Chinese text is usually saved in, tried in this order when a file does not decode
# in the declared one (UTF-8 is the strictest, so a file that decodes as UTF-8 most likely is).
LIKELY_ENCODINGS = ("utf-8", "gb18030", "big5hkscs")


def decode(data: bytes, encoding: str, what: str) -> str:
    """Text of ``data`` decoded strictly, or InvalidFile naming the line and byte offset, and the
    encoding the file does decode in, if one of the usual ones does (``decodes_as``)."""
    try:
        return scoring.decode(data, encoding)
    except scoring.ScoringError as error:
        refusal = InvalidFile.from_scoring_error(error, what)
        if isinstance(error, scoring.EncodingError):
            guess = _decodes_as(data, encoding)
            if guess:
                refusal.fields["decodes_as"] = guess
                refusal.message = interpolate(
                    _(
                        "%(message)s It decodes as %(guess)s: save it as %(encoding)s and upload "
                        "it again."
                    ),
                    message=refusal.message,
                    guess=guess,
                    encoding=encoding,
                )
        raise refusal from None


def _decodes_as(data: bytes, declared: str) -> str:
    for candidate in LIKELY_ENCODINGS:
        if candidate == declared.lower():
            continue
        try:
            data.decode(candidate)
        except UnicodeDecodeError:
            continue
        return candidate
    return ""


# The names stored while a ``recording_stored`` block runs in this thread or task.
_stored_names: ContextVar[list[str] | None] = ContextVar("stored_names", default=None)


@contextmanager
def recording_stored() -> Iterator[list[str]]:
    """The names of the files ``save_utf8`` stores inside the block, so that a caller whose
    transaction rolls back removes them (a bundle that fails half-way leaves no file)."""
    names: list[str] = []
    token = _stored_names.set(names)
    try:
        yield names
    finally:
        _stored_names.reset(token)


def save_utf8(field: FieldFile, text: str, stem: str) -> str:
    """Store ``text`` as UTF-8 in ``field`` (without saving the row); answer its checksum."""
    data = text.encode("utf-8")
    field.save(f"{stem}-{uuid.uuid4().hex[:12]}.txt", ContentFile(data), save=False)
    recording = _stored_names.get()
    if recording is not None:
        recording.append(field.name or "")
    return checksum(data)


def read_stored(field: FieldFile) -> bytes:
    with field.open("rb") as stored:
        data: bytes = stored.read()
    return data


def read_stored_text(field: FieldFile) -> str:
    return read_stored(field).decode("utf-8")
