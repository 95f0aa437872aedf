"""Reading uploads: a size cap while reading, checksums, strict decoding."""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import DatabaseError, transaction
from django.db.models.fields.files import FieldFile
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

import scoring
from bakeoff.errors import interpolate

from ..errors import InvalidFile, UploadTooLarge

logger = logging.getLogger(__name__)

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


def decode_corpus_file(data: bytes, encoding: str, what: str, *, controls: bool = False) -> str:
    """Text of a corpus file (a gold, a test text, a word list, a training text, domain labels)
    as ``decode`` reads it, refused at the line and column of its first NUL, or with
    ``controls`` (domain labels, which pages and exports show as names) of its first control
    character but tab, line feed and carriage return (docs/validation.md#control-characters)."""
    text = decode(data, encoding, what)
    try:
        scoring.check_characters(text, controls=controls)
    except scoring.ScoringError as error:
        raise InvalidFile.from_scoring_error(error, what) from None
    return text


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


# The files stored by the innermost ``files_removed_on_failure`` block, not yet committed.
_written: ContextVar[list[tuple[FieldFile, str]] | None] = ContextVar("files_written", default=None)


@contextmanager
def files_removed_on_failure() -> Iterator[None]:
    """Every file stored in the block (``store``, ``save_utf8``) is removed again when the block
    ends in an exception, whatever it is (a refusal, a row the database refuses, a lost
    connection), unless a row names it all the same: no file outlives the row that should have
    named it. A block inside another hands its files to the outer one when it succeeds.

    Storage cannot take part in a transaction, so a service stores its files in this block and
    writes their rows in a transaction inside it."""
    written: list[tuple[FieldFile, str]] = []
    token = _written.set(written)
    try:
        yield
    except BaseException:
        _remove_unnamed(written)
        raise
    finally:
        _written.reset(token)
    outer = _written.get()
    if outer is not None:
        outer.extend(written)


def _remove_unnamed(written: list[tuple[FieldFile, str]]) -> None:
    for field, name in written:
        model = type(field.instance)
        try:
            with transaction.atomic():
                named = model._default_manager.filter(**{field.field.name: name}).exists()
        except DatabaseError:  # the transaction is lost: so is any row written in it
            named = False
        if named:
            continue
        try:
            field.storage.delete(name)
        except Exception:  # the original error matters more; the file is logged for removal
            logger.exception("file %s of a row never written is left in storage", name)


def store(field: FieldFile, name: str, data: bytes) -> None:
    """Store ``data`` in ``field`` under (about) ``name``, without saving the row; only inside
    ``files_removed_on_failure``, which removes it if the row is never written."""
    written = _written.get()
    if written is None:
        raise RuntimeError("a file is stored only inside uploads.files_removed_on_failure()")
    field.save(name, ContentFile(data), save=False)
    written.append((field, field.name or ""))


def save_utf8(field: FieldFile, text: str, stem: str) -> str:
    """Store ``text`` as UTF-8 in ``field`` (without saving the row, inside
    ``files_removed_on_failure``); answer its checksum."""
    data = text.encode("utf-8")
    store(field, f"{stem}-{uuid.uuid4().hex[:12]}.txt", data)
    return checksum(data)


def read_stored(field: FieldFile) -> bytes:
    with field.open("rb") as stored:
        data: bytes = stored.read()
    return data


def read_stored_text(field: FieldFile) -> str:
    return read_stored(field).decode("utf-8")
