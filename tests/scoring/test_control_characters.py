"""Control characters in the files the library reads (docs/validation.md#control-characters): a
NUL is refused everywhere, and where the stricter rule applies (domain labels, free text) every
control character but tab, line feed and carriage return; the first one is named with its line
and column."""

from __future__ import annotations

import sys
import unicodedata

import pytest

import scoring

CONTROLS = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cc"]


def refused(*, controls: bool) -> set[str]:
    found = set()
    for char in CONTROLS:
        try:
            scoring.check_characters(f"和{char}尚", controls=controls)
        except scoring.ControlCharacterError:
            found.add(char)
    return found


def test_the_strict_rule_refuses_category_cc_but_tab_lf_and_cr() -> None:
    assert set(CONTROLS) - refused(controls=True) == {"\t", "\n", "\r"}
    assert len(refused(controls=True)) == 62


def test_a_corpus_text_refuses_nul_only() -> None:
    assert refused(controls=False) == {"\x00"}
    # The icwb2 AS training word list has U+0080 and backspaces in its entries.
    scoring.check_characters("ＴＳＰ\x80<\n彈\x08指\n", controls=False)


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


def test_a_nul_is_named_as_such() -> None:
    with pytest.raises(scoring.ControlCharacterError) as raised:
        scoring.check_characters("结婚\n的\x00", controls=False)
    assert str(raised.value) == (
        "line 2, column 2: '\\x00' (U+0000) is a NUL character, which no text holds; remove it "
        "(a file saved as UTF-16 has one in every other byte)"
    )


def test_text_without_control_characters_passes() -> None:
    scoring.check_characters("结婚　的 和尚\t未\r\n\ufeff\u2028ｃ\n")
