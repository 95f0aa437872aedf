"""Input files of the command line: their encodings, and errors that name them."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import EncodingError, ScoringError
from ..core.text import UTF8


def add_encodings(parser: argparse.ArgumentParser, files: Sequence[tuple[str, str]]) -> None:
    """``--encoding`` for every input file, and ``--STEM-encoding`` for each file in ``files``."""
    parser.add_argument(
        "--encoding",
        default=UTF8,
        help="encoding of every input file: utf-8 (default), gb18030 (reads GB 2312 and GBK) or "
        "big5hkscs (reads Big5); the options below set it for one file",
    )
    add_encodings_of(parser, files)


def add_encodings_of(parser: argparse.ArgumentParser, files: Sequence[tuple[str, str]]) -> None:
    """``--STEM-encoding`` for each file in ``files``, where ``--encoding`` is already there."""
    for stem, what in files:
        parser.add_argument(
            f"--{stem}-encoding",
            metavar="ENCODING",
            help=f"encoding of {what} (default: --encoding)",
        )


def encoding_of(args: argparse.Namespace, stem: str) -> str:
    """The encoding of one input file: its own option, else ``--encoding``."""
    own: str | None = getattr(args, f"{stem}_encoding", None)
    return own or str(args.encoding)


@contextmanager
def reading(path: Path, role: str) -> Iterator[None]:
    """Name the file, and what it is, in an error about its bytes (docs/validation.md)."""
    try:
        yield
    except EncodingError as error:
        raise ScoringError(f"{path} ({role}): {error}") from None
