"""Reading corpus files and runs (docs/validation.md).

Text is decoded strictly from one of three encodings and kept exactly as written, except for a
leading UTF-8 byte order mark: characters are never normalised, so scoring compares code points.
"""

from __future__ import annotations

import codecs
import hashlib
import re
from pathlib import Path

from .errors import ControlCharacterError, CorpusFormatError, EncodingError

UTF8 = "utf-8"
GB18030 = "gb18030"
BIG5HKSCS = "big5hkscs"

# The declared encodings people write, and the codec that reads each. GB18030 is a superset of
# GB2312 and GBK, Big5-HKSCS of Big5, so one codec serves each family.
_ENCODING_ALIASES = {
    "utf8": UTF8,
    "utf-8": UTF8,
    "utf-8-sig": UTF8,
    "gb18030": GB18030,
    "gbk": GB18030,
    "gb2312": GB18030,
    "cp936": GB18030,
    "gb": GB18030,
    "big5": BIG5HKSCS,
    "big5hkscs": BIG5HKSCS,
    "big5-hkscs": BIG5HKSCS,
    "cp950": BIG5HKSCS,
}

ENCODINGS = (UTF8, GB18030, BIG5HKSCS)

# docs/validation.md: words are separated by ASCII space, tab or U+3000. A CR that ends a line
# (before its LF, or at the end of the text) belongs to the line ending; any other CR is a
# character of a word.
SEPARATORS = " \t\u3000"
_WORD = re.compile(r"(?:[^ \t\n\r\u3000]|\r(?!\n|\Z))+")
_SEPARATOR_RUN = re.compile(r"[ \t\u3000]+|\r(?=\n|\Z)")


def normalise_encoding(name: str) -> str:
    """The codec name for a declared encoding, or a CorpusFormatError naming the ones we read.

    >>> normalise_encoding("GB2312"), normalise_encoding("utf8")
    ('gb18030', 'utf-8')
    """
    codec = _ENCODING_ALIASES.get(name.strip().lower().replace("_", "-"))
    if codec is None:
        known = ", ".join(ENCODINGS)
        raise CorpusFormatError(f"unknown encoding {name!r}: use one of {known}")
    return codec


def decode(data: bytes, encoding: str = UTF8) -> str:
    """Decode ``data`` strictly, dropping a leading UTF-8 byte order mark.

    >>> decode("结婚 的".encode("gb18030"), "gbk")
    '结婚 的'
    """
    codec = normalise_encoding(encoding)
    if codec == UTF8 and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode(codec)
    except UnicodeDecodeError as error:
        raise encoding_error(data, error, codec) from None


def encoding_error(data: bytes, error: UnicodeDecodeError, codec: str) -> EncodingError:
    """An EncodingError that names the line and the byte offset within it."""
    line = data.count(b"\n", 0, error.start) + 1
    line_start = data.rfind(b"\n", 0, error.start) + 1
    bad = data[error.start : error.end].hex(" ")
    return EncodingError(
        encoding=codec,
        line=line,
        byte_offset=error.start - line_start,
        detail=f"byte {bad}",
    )


def to_utf8(data: bytes, encoding: str = UTF8) -> bytes:
    """UTF-8 bytes of ``data`` without a BOM, checked strictly; UTF-8 input is not copied.

    >>> to_utf8("和尚".encode("big5"), "big5").decode()
    '和尚'
    """
    codec = normalise_encoding(encoding)
    if codec == UTF8:
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
        try:
            data.decode(UTF8)
        except UnicodeDecodeError as error:
            raise encoding_error(data, error, codec) from None
        return data
    return decode(data, codec).encode(UTF8)


def read_text(path: str | Path, encoding: str = UTF8) -> str:
    """The decoded text of a file."""
    return decode(Path(path).read_bytes(), encoding)


# docs/validation.md#control-characters: every character of Unicode category Cc (C0, DEL and C1)
# but the three that lay text out; in a corpus's texts only NUL, since real corpora carry a few
# others (the icwb2 AS word list has U+0080 and backspaces in its entries).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_NUL = re.compile("\x00")


def check_characters(text: str, *, controls: bool = True) -> None:
    """Raise ControlCharacterError at the first NUL of ``text``, and with ``controls`` at the
    first control character of any kind but tab, line feed and carriage return (docs/validation.md
    #control-characters: the rule of domain labels and of free text; a gold, a test text, a word
    list refuse NUL only).

    >>> check_characters("结婚 的\\t和尚\\r\\n")
    >>> check_characters("结婚\\x08\\n", controls=False)
    >>> check_characters("结婚 的\\n和\\x1b尚\\n")
    Traceback (most recent call last):
    ...
    scoring.core.errors.ControlCharacterError: line 2, column 2: '\\x1b' (U+001B) is a control ...
    """
    found = (_CONTROL if controls else _NUL).search(text)
    if found is None:
        return
    start = found.start()
    line_start = text.rfind("\n", 0, start) + 1
    raise ControlCharacterError(
        line=text.count("\n", 0, start) + 1, column=start - line_start + 1, found=found.group()
    )


def split_lines(text: str) -> list[str]:
    """Lines as Perl reads them: split at LF only, a final LF ends the last line, a CR that ends
    a line is dropped (any other CR is data).

    ``str.splitlines`` would also split at U+2028, U+0085 and other characters that are data here.

    >>> split_lines("结婚 的\\r\\n和尚\\n")
    ['结婚 的', '和尚']
    >>> split_lines("结婚\\r的\\r\\n和\\n")
    ['结婚\\r的', '和']
    """
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def words_of(line: str) -> list[str]:
    """The words of one segmented line.

    >>> words_of("结婚　的  和尚\\t未")
    ['结婚', '的', '和尚', '未']
    """
    return _WORD.findall(line)


def all_words(text: str) -> list[str]:
    """Every word of a segmented text, in order (line structure dropped)."""
    return _WORD.findall(text)


def strip_separators(line: str) -> str:
    """A line with every separator removed: what the test text of a gold line is.

    >>> strip_separators("结婚 的　和尚")
    '结婚的和尚'
    """
    return _SEPARATOR_RUN.sub("", line)


def test_text_from_gold(gold_text: str) -> str:
    """The test text of a gold standard: each line with its whitespace removed
    (docs/validation.md).

    >>> test_text_from_gold("结婚 的 和尚\\n我 爱 北京\\n")
    '结婚的和尚\\n我爱北京\\n'
    """
    return "".join(strip_separators(line) + "\n" for line in split_lines(gold_text))


test_text_from_gold.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def sha256_bytes(data: bytes) -> str:
    """The checksum the signatures name: ``sha256:`` and the hex digest.

    >>> sha256_bytes(b"")[:20]
    'sha256:e3b0c44298fc1'
    """
    return "sha256:" + hashlib.sha256(data).hexdigest()
