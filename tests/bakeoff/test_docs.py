"""The documentation pages (docs/ rendered at /docs/), and every link that points into them."""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

import pytest
from django.test import Client

from bakeoff.views.docs import DOCS_DIR, TRANSLATED, rendered

REPO = DOCS_DIR.parent
# The English pages (test_docs_i18n.py checks their translations, under docs/<language>/).
PAGES = sorted(
    path.relative_to(DOCS_DIR).as_posix()
    for path in DOCS_DIR.rglob("*.md")
    if path.relative_to(DOCS_DIR).parts[0] not in TRANSLATED
)
# Where the repository points into docs/: a path under docs/ with an optional #anchor in code,
# comments and Markdown; the url tag of the "docs" view followed by an optional #anchor in
# templates.
CODE_REFERENCE = re.compile(r"docs/((?:[\w-]+/)*[\w-]+\.md)(?:#([\w-]+))?")
TEMPLATE_REFERENCE = re.compile(r"{% url 'docs' '([^']+)' %}(?:#([\w-]+))?")
SEARCHED = ("*.py", "*.html", "*.md", "*.txt", "*.toml")
SKIPPED = {".venv", ".git", "node_modules", "var", "staticfiles"}


def html_of(page: str) -> str:
    source = DOCS_DIR / page
    return str(rendered(source, source.stat().st_mtime_ns)[1])


def anchors_of(page: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', html_of(page)))


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation dropped, each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def repository_files() -> list[Path]:
    """The project's own files of the kinds searched, outside docs/ (a walk that does not enter
    the folders skipped: the virtualenv alone holds tens of thousands of files)."""
    found: list[Path] = []
    for folder, folders, files in os.walk(REPO):
        here = Path(folder)
        folders[:] = sorted(
            name
            for name in folders
            if name not in SKIPPED and not (here == REPO and name == "docs")
        )
        found.extend(
            here / name
            for name in sorted(files)
            if any(fnmatch.fnmatch(name, pattern) for pattern in SEARCHED)
        )
    return found


def test_the_index_links_every_page(client: Client) -> None:
    response = client.get("/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>How Bakeoff measures segmentation · Bakeoff</title>" in html
    for page in PAGES:
        if page != "README.md":
            assert f'href="{page}"' in html, page


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_at_its_path_in_the_repository(client: Client, page: str) -> None:
    response = client.get(f"/docs/{page}")
    assert response.status_code == 200
    assert '<article class="docs" lang="en"><h1 id=' in response.content.decode()


@pytest.mark.parametrize(
    ("language", "code", "said"),
    [
        ("zh-CN", "zh-hans", "此页尚未译成中文，下面是英文原文。"),
        ("zh-TW", "zh-hant", "此頁尚未譯成中文，下面是英文原文。"),
    ],
)
def test_a_chinese_reader_is_told_when_a_page_is_in_english_only(
    client: Client, language: str, code: str, said: str
) -> None:
    page = client.get("/docs/operations.md", headers={"accept-language": language})
    html = page.content.decode()
    assert said in html and f'href="/docs/{code}/glossary.md"' in html  # the translated one
    assert '<article class="docs" lang="en">' in html  # English fonts and hyphenation there
    english = client.get("/docs/operations.md", headers={"accept-language": "en"})
    assert "not been translated" not in english.content.decode()


@pytest.mark.parametrize(
    "path",
    ["../README.md", "measures/../../README.md", "missing.md", "measures/", "../manage.py"],
)
def test_it_serves_nothing_but_the_markdown_files_of_docs(client: Client, path: str) -> None:
    assert client.get(f"/docs/{path}").status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_heading_ids_are_the_ones_github_gives(page: str) -> None:
    text = (DOCS_DIR / page).read_text(encoding="utf-8")
    in_code = False
    headings = []
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (match := re.match(r"#+ (.+)", line)):
            headings.append(github_anchor(match[1]))
    assert sorted(headings) == sorted(anchors_of(page))
    assert len(set(headings)) == len(headings), "a repeated heading gets different ids"


@pytest.mark.parametrize("page", PAGES)
def test_links_between_pages_lead_to_a_page_and_a_section(page: str) -> None:
    for target in re.findall(r'href="([^"]+)"', html_of(page)):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (
            ((DOCS_DIR / page).parent / path).resolve().relative_to(DOCS_DIR.resolve()).as_posix()
            if path
            else page
        )
        assert linked in PAGES, f"{page} links to {target}"
        if anchor:
            assert anchor in anchors_of(linked), f"{page} links to {target}"


def test_every_reference_into_docs_names_a_page_and_a_section() -> None:
    references = []
    for path in repository_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in (CODE_REFERENCE, TEMPLATE_REFERENCE):
            references += [(path, page, anchor) for page, anchor in pattern.findall(text)]
    assert references
    for path, page, anchor in references:
        where = f"{path.relative_to(REPO)}: docs/{page}#{anchor}"
        language, _, rest = page.partition("/")
        if language in ("en", *TRANSLATED):  # an address in one language: the English decides
            page = rest
        assert page in PAGES, where
        if anchor:
            assert anchor in anchors_of(page), where


def test_nothing_cites_a_document_outside_the_repository() -> None:
    # The measures were once defined in a specification file that the repository never held.
    outside = re.compile("SPEC" + r"(\.md|:| §| order)")
    citing = [
        f"{path.relative_to(REPO)}:{number}"
        for path in [*repository_files(), *DOCS_DIR.rglob("*.md")]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert not citing


def test_the_chinese_words_of_an_english_page_are_marked_as_chinese(client: Client) -> None:
    """WCAG 3.1.2: the glossary's Chinese terms on its English page carry lang="zh", so that a
    screen reader does not read them as English; the Chinese pages need no mark."""
    html = client.get("/docs/glossary.md", headers={"accept-language": "en"}).content.decode()
    article = html[html.index('<article class="docs" lang="en">') :]
    assert '<span lang="zh">成绩第</span>' in article
    unmarked = re.sub(r'<span lang="zh">[^<]*</span>', "", article)
    assert not re.search(r"[\u4e00-\u9fff]", re.sub(r"<[^>]*>", "", unmarked))
    chinese = client.get("/docs/zh-hans/glossary.md").content.decode()
    assert '<article class="docs" lang="zh-hans">' in chinese and 'lang="zh">' not in chinese
