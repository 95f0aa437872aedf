"""The project's documentation: the Markdown files of ``docs/``, rendered as pages.

A page is served at ``/docs/<its path under docs/>`` (``/docs/measures/scoring.md``), so the
relative links between the files work alike on the site and in the repository. Headings get the
ids GitHub gives them (lower case, punctuation dropped, spaces as hyphens), so ``page.md#anchor``
links work in both places too.

Translations live beside the English under ``docs/<language>/`` with the same relative paths
(the Simplified Chinese of ``measures/scoring.md`` is ``zh-hans/measures/scoring.md``); their
headings carry the English page's ids (``## 领域 {#domains}``), so every ``#anchor`` lands on
the same section in every language. The plain address serves the reader's language (the
language menu's), the English page with a note where a page has no translation yet;
``/docs/<language>/<path>`` serves one language whatever the reader's, which is where the page's
links to its other languages lead. A translation's relative links are the English page's, so on
the site they resolve within the same language (or to the English fallback), and in the
repository to the translated file beside it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

DOCS_DIR = Path(settings.BASE_DIR) / "docs"
INDEX = "README.md"
ENGLISH = "en"
# The languages with a folder of translations under docs/, named by their Django codes.
TRANSLATED = ("zh-hans", "zh-hant")
LANGUAGE_NAMES = {ENGLISH: "English", "zh-hans": "简体中文", "zh-hant": "繁體中文"}
_EXTENSIONS = ("tables", "fenced_code", "toc")
# attr_list gives a translated heading its English id ({#domains}). Only translations get it: on
# an English page it would read a table cell ending in "{1}" as attributes.
_TRANSLATION_EXTENSIONS = ("attr_list", *_EXTENSIONS)


def page(request: HttpRequest, path: str = INDEX) -> HttpResponse:
    first, _, rest = path.partition("/")
    if first in (ENGLISH, *TRANSLATED):
        language, path = first, rest or INDEX
    else:
        language = reader_language()
    english = docs_file(path)
    source = translation_of(path, language) or english
    title, html = rendered(source, source.stat().st_mtime_ns)
    return render(
        request,
        "bakeoff/docs.html",
        {
            "title": title,
            "content": html,
            "is_index": path == INDEX,
            "content_language": language if source != english else ENGLISH,
            "untranslated": language != ENGLISH and source == english,
            # The note on an untranslated page speaks the language asked for, which an address
            # such as /docs/zh-hant/... may choose apart from the rest of the page's.
            "docs_language": language,
            "glossary_path": f"{language}/glossary.md",
            "versions": [
                (code, name, f"{code}/{path}", code == language)
                for code, name in LANGUAGE_NAMES.items()
            ],
        },
    )


def reader_language() -> str:
    """The active language as one of the docs' languages (English for any other)."""
    active = (translation.get_language() or ENGLISH).lower()
    return active if active in TRANSLATED else ENGLISH


def docs_file(path: str) -> Path:
    """The English Markdown file at ``path`` under docs/, or 404 for anything else."""
    root = DOCS_DIR.resolve()
    source = (DOCS_DIR / path).resolve()
    if (
        source.suffix != ".md"
        or root not in source.parents
        or source.relative_to(root).parts[0] in (ENGLISH, *TRANSLATED)
        or not source.is_file()
    ):
        raise Http404("No such page in the documentation.")
    return source


def translation_of(path: str, language: str) -> Path | None:
    """The translation of the English page at ``path`` (already checked by ``docs_file``)."""
    if language not in TRANSLATED:
        return None
    source = (DOCS_DIR / language / path).resolve()
    return (
        source if source.is_file() and (DOCS_DIR / language).resolve() in source.parents else None
    )


@lru_cache(maxsize=64)
def rendered(source: Path, mtime_ns: int) -> tuple[str, SafeString]:
    """The page's title (its first heading) and its HTML; ``mtime_ns`` renews the cache entry
    when the file changes."""
    text = source.read_text(encoding="utf-8")
    translated = source.resolve().relative_to(DOCS_DIR.resolve()).parts[0] in TRANSLATED
    converter = markdown.Markdown(
        extensions=list(_TRANSLATION_EXTENSIONS if translated else _EXTENSIONS)
    )
    html = converter.convert(text)
    tokens = converter.toc_tokens  # type: ignore[attr-defined]  # set by the toc extension
    title = str(tokens[0]["name"]) if tokens else source.stem
    # The files are the repository's own, written by its authors: their HTML is trusted.
    return title, mark_safe(html)
