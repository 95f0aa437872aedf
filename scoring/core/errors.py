"""Errors raised by the scoring library.

Every error carries the fields a person needs to act on it (which line, which column, what was
expected and what was found) and renders them into one readable sentence.
"""

from __future__ import annotations


def counted(number: int, noun: str) -> str:
    """A count and its noun, as an English sentence says it (the library speaks English; the
    platform says its own messages in the reader's language).

    >>> counted(1, "line"), counted(2, "line"), counted(0, "domain label")
    ('1 line', '2 lines', '0 domain labels')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


class ScoringError(Exception):
    """Base class of every error the scoring library raises on bad input."""


class EncodingError(ScoringError):
    """Bytes that do not decode in the declared encoding."""

    def __init__(self, *, encoding: str, line: int, byte_offset: int, detail: str = "") -> None:
        self.encoding = encoding
        self.line = line
        self.byte_offset = byte_offset
        self.detail = detail
        message = (
            f"line {line}: the bytes at offset {byte_offset} of the line do not decode as "
            f"{encoding}"
        )
        if detail:
            message += f" ({detail})"
        message += "; is the file in another encoding?"
        super().__init__(message)


class RunValidationError(ScoringError):
    """A run whose characters or lines differ from the text it must segment (docs/validation.md).

    ``line`` and ``column`` are 1-based; ``column`` counts characters of the line with its
    whitespace removed. ``expected`` and ``found`` are single characters, or ``""`` for the end of
    the line (or of the file).
    """

    def __init__(
        self,
        *,
        line: int,
        column: int,
        expected: str,
        found: str,
        reason: str = "",
    ) -> None:
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
        self.reason = reason
        message = (
            f"line {line}, column {column}: expected {_describe(expected)}, "
            f"found {_describe(found)}"
        )
        if reason:
            message += f"; {reason}"
        super().__init__(message)

    def to_dict(self) -> dict[str, object]:
        return {
            "detail": str(self),
            "line": self.line,
            "column": self.column,
            "expected": self.expected,
            "found": self.found,
        }


class LineCountError(RunValidationError):
    """A run with more or fewer lines than the text it must segment: ``run_lines`` and
    ``reference_lines`` count them (``line`` and ``column`` point where they part)."""

    def __init__(
        self,
        *,
        line: int,
        column: int,
        expected: str,
        found: str,
        reason: str = "",
        run_lines: int = 0,
        reference_lines: int = 0,
    ) -> None:
        self.run_lines = run_lines
        self.reference_lines = reference_lines
        super().__init__(line=line, column=column, expected=expected, found=found, reason=reason)

    def to_dict(self) -> dict[str, object]:
        return {
            **super().to_dict(),
            "run_lines": self.run_lines,
            "reference_lines": self.reference_lines,
        }


class CorpusFormatError(ScoringError):
    """A corpus file that cannot serve as gold, test text or word list."""


class CorpusLineCountError(CorpusFormatError):
    """A gold standard without one line per line of its test text."""

    def __init__(self, *, gold_lines: int, test_lines: int) -> None:
        self.gold_lines = gold_lines
        self.test_lines = test_lines
        super().__init__(
            f"the gold standard has {gold_lines} lines and the test text {test_lines}: they "
            "must have one line per sentence each"
        )


class ControlCharacterError(CorpusFormatError):
    """A file with a character ``check_characters`` refuses: a NUL, or (where the file may hold
    no control character but tab, line feed and carriage return) another control character.
    ``line`` and ``column`` are 1-based; ``column`` counts every character of the line, separators
    included. ``found`` is the character."""

    def __init__(self, *, line: int, column: int, found: str) -> None:
        self.line = line
        self.column = column
        self.found = found
        where = f"line {line}, column {column}: {_describe(found)}"
        super().__init__(
            f"{where} is a NUL character, which no text holds; remove it (a file saved as "
            "UTF-16 has one in every other byte)"
            if found == "\x00"
            else f"{where} is a control character; remove it (this file may contain no control "
            "character but tab, line feed and carriage return)"
        )


def _describe(char: str) -> str:
    if char == "":
        return "the end of the line"
    if len(char) == 1:
        return f"{show_char(char)} (U+{ord(char):04X})"
    return repr(char)


def show_char(char: str) -> str:
    """A character quoted, escaped when it does not print (a CR shows as '\\r', not as a jump to
    the start of the terminal's line)."""
    return f"'{char}'" if char.isprintable() else repr(char)
