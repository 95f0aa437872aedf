"""Mail laid out in columns for a monospaced reader: a label, then its value, every value starting
in the same column whatever the language.

A terminal or a plain-text mail client gives an East Asian wide or full-width character (a Han
character, the full-width colon ：) two columns, so labels padded by their number of characters
leave Chinese values out of line. Width here is the display width (Unicode's East Asian Width,
UAX #11): wide and full-width characters count two, combining marks none, and the ambiguous ones
(·, °, —) two for a Chinese reader, whose fonts draw them wide, one for anyone else.
"""

from __future__ import annotations

import unicodedata

from django.utils import translation

GAP = 2  # columns between the widest label and the values


def display_width(text: str, *, wide_ambiguous: bool = False) -> int:
    width = 0
    for character in text:
        if unicodedata.combining(character) or unicodedata.category(character) == "Cf":
            continue
        kind = unicodedata.east_asian_width(character)
        width += 2 if kind in ("W", "F") or (kind == "A" and wide_ambiguous) else 1
    return width


def chinese_reader() -> bool:
    return (translation.get_language() or "").lower().startswith("zh")


def align(text: str, *, separator: str = "\t") -> str:
    """Each line ``label<separator>value`` as the label padded with spaces to the widest label's
    display width (plus a gap), then the value; the other lines as they are."""
    wide = chinese_reader()
    lines = text.split("\n")
    labels = [line.split(separator, 1)[0] for line in lines if separator in line]
    column = max((display_width(label, wide_ambiguous=wide) for label in labels), default=0) + GAP
    out = []
    for line in lines:
        if separator in line:
            label, value = line.split(separator, 1)
            padding = column - display_width(label, wide_ambiguous=wide)
            line = label + " " * padding + value.lstrip(" ")
        out.append(line)
    return "\n".join(out)
