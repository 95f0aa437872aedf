"""Corpus files may carry no control character but tab, line feed and carriage return
(docs/validation.md#control-characters): the first one is named with its line and column."""

from __future__ import annotations

import sys
import unicodedata

import pytest

import scoring

CONTROLS = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cc"]


def test_the_refused_characters_are_category_cc_but_tab_lf_and_cr() -> None:
    refused = []
    for char in CONTROLS:
        try:
            scoring.check_characters(f"和{char}尚")
        except scoring.ControlCharacterError:
            refused.append(char)
    assert set(CONTROLS) - set(refused) == {"\t", "\n", "\r"}
    assert len(refused) == 62


@pytest.mark.parametrize(
    ("text", "line", "column", "found"),
    [
        ("\x00", 1, 1, "\x00"),
        ("结婚 的\n和尚\t未\x1b结婚\n", 2, 5, "\x1b"),
        ("结婚\r\n的\r\n\x85", 3, 1, "\x85"),
        ("结婚 的\u2028和\x7f", 1, 7, "\x7f"),
    ],
)
def test_the_first_control_character_is_named_at_its_line_and_column(
    text: str, line: int, column: int, found: str
) -> None:
    with pytest.raises(scoring.ControlCharacterError) as raised:
        scoring.check_characters(text)
    assert (raised.value.line, raised.value.column, raised.value.found) == (line, column, found)
    assert str(raised.value).startswith(f"line {line}, column {column}: ")
    assert isinstance(raised.value, scoring.CorpusFormatError)


def test_text_without_control_characters_passes() -> None:
    scoring.check_characters("结婚　的 和尚\t未\r\n\ufeff\u2028ｃ\n")
