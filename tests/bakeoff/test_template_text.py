"""No English sentence is left outside {% translate %} in a page's template: a reader of the
Chinese interface would meet it untranslated. Symbols, figure names and code are allowed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# Words a page shows as they are in every language: names of figures, formats, code.
ALLOWED = {
    "BASE", "TOP", "CSV", "JSON", "LaTeX", "SVG", "PDF", "API", "UTF", "OOV", "URL", "sha",
    "oov", "Friedman", "booktabs", "curl", "Authorization", "Token", "YOUR_TOKEN", "file",
    "run", "txt", "api", "bakeoffs", "BAKEOFF", "tracks", "pku", "closed", "submissions",
}  # fmt: skip
REMOVED = [
    r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}",
    r"{#.*?#}",
    r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}",
    r"<!--.*?-->",
    r"<(script|style|code|pre)\b.*?</\1>",
    r"{%.*?%}",
    r"{{.*?}}",
    r"<[^>]*>",
    r"&\w+;",
]


def english_left(template: Path) -> list[str]:
    text = template.read_text(encoding="utf-8")
    for pattern in REMOVED:
        text = re.sub(pattern, " ", text, flags=re.S)
    return [
        line.strip()
        for line in text.splitlines()
        if any(w not in ALLOWED for w in re.findall(r"[A-Za-z]{3,}", line))
    ]


@pytest.mark.parametrize(
    "template",
    sorted(p for p in TEMPLATES.rglob("*.html") if "email" not in p.parts),
    ids=lambda p: str(p.relative_to(TEMPLATES)),
)
def test_no_english_is_left_outside_translate(template: Path) -> None:
    assert english_left(template) == []


def test_the_check_finds_english_outside_translate(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '{% load i18n %}<p>{% translate "Fine" %} <a href="/x">the rule</a></p>\n'
        "<td>{{ row.rank }}</td> (rank {{ n }})\n"
        "{% blocktranslate %}Also fine {{ x }}{% endblocktranslate %}",
        encoding="utf-8",
    )
    assert english_left(page) == ["the rule", "(rank  )"]
