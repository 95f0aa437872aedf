"""The project's documentation: the Markdown files of ``docs/``, rendered as pages.

A page is served at ``/docs/<its path under docs/>`` (``/docs/measures/scoring.md``), so the
relative links between the files work alike on the site and in the repository. Headings get the
ids GitHub gives them (lower case, punctuation dropped, spaces as hyphens), so ``page.md#anchor``
links work in both places too.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe

DOCS_DIR = Path(settings.BASE_DIR) / "docs"
INDEX = "README.md"
_EXTENSIONS = ("tables", "fenced_code", "toc")


def page(request: HttpRequest, path: str = INDEX) -> HttpResponse:
    source = docs_file(path)
    title, html = rendered(source, source.stat().st_mtime_ns)
    return render(
        request,
        "bakeoff/docs.html",
        {"title": title, "content": html, "is_index": path == INDEX},
    )


def docs_file(path: str) -> Path:
    """The Markdown file at ``path`` under docs/, or 404 for anything else."""
    source = (DOCS_DIR / path).resolve()
    if source.suffix != ".md" or DOCS_DIR.resolve() not in source.parents or not source.is_file():
        raise Http404("No such page in the documentation.")
    return source


@lru_cache(maxsize=64)
def rendered(source: Path, mtime_ns: int) -> tuple[str, SafeString]:
    """The page's title (its first heading) and its HTML; ``mtime_ns`` renews the cache entry
    when the file changes."""
    text = source.read_text(encoding="utf-8")
    converter = markdown.Markdown(extensions=list(_EXTENSIONS))
    html = converter.convert(text)
    tokens = converter.toc_tokens  # type: ignore[attr-defined]  # set by the toc extension
    title = str(tokens[0]["name"]) if tokens else source.stem
    # The files are the repository's own, written by its authors: their HTML is trusted.
    return title, mark_safe(html)
