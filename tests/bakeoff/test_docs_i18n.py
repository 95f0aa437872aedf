"""The translations of the documentation (docs/zh-hans/, docs/zh-hant/): each has every section,
code block, figure and link of its English page, and the reader gets the page in their language.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from django.test import Client

from bakeoff.views.docs import DOCS_DIR, TRANSLATED, rendered
from tests.bakeoff.test_docs import (
    CODE_REFERENCE,
    PAGES,
    TEMPLATE_REFERENCE,
    anchors_of,
    html_of,
    repository_files,
)

TRANSLATIONS = sorted(
    (language, path.relative_to(DOCS_DIR / language).as_posix())
    for language in TRANSLATED
    for path in (DOCS_DIR / language).rglob("*.md")
)
IDS = [f"{language}/{page}" for language, page in TRANSLATIONS]
# The pages issue 28 asks for in both scripts; a page leaves this list only with its translations.
REQUIRED = (
    "measures/scoring.md",
    "measures/intervals.md",
    "measures/maxmatch.md",
    "glossary.md",
    "phases.md",
    "validation.md",
    "api-errors.md",
    "measures/balanced-f.md",
    "measures/bootstrap.md",
    "measures/criterion.md",
    "measures/buckets.md",
    "contest-life.md",
    "accounts-and-mail.md",
)
FENCE = re.compile(r"^ *```[^\n]*\n.*?^ *```", re.MULTILINE | re.DOTALL)  # in a list item too
INLINE_CODE = re.compile(r"`[^`\n]+(?:\n[^`\n]+)*`")  # may wrap, never across a paragraph
NUMBER = re.compile(r"\d+(?:\.\d+)?")
CJK = "\u3400-\u9fff"
ASCII_PUNCTUATION_BY_CJK = re.compile(rf"[{CJK}][,;:!?()]|[,;:!?(][{CJK}]")


def text_of(language: str, page: str) -> str:
    return (DOCS_DIR / language / page).read_text(encoding="utf-8")


def english_of(page: str) -> str:
    return (DOCS_DIR / page).read_text(encoding="utf-8")


def translated_html(language: str, page: str) -> str:
    source = DOCS_DIR / language / page
    return str(rendered(source, source.stat().st_mtime_ns)[1])


def inline_code(text: str) -> list[str]:
    return [" ".join(code.split()) for code in INLINE_CODE.findall(FENCE.sub(" ", text))]


def sentences(language: str, page: str) -> str:
    """A translation's prose, without the glossary's columns of terms, which quote both scripts
    as the interface writes them (训练数据, 训练词表)."""
    text = text_of(language, page)
    if page == "glossary.md":
        text = re.sub(r"(?m)^(\|[^|\n]*)\|[^|\n]*\|[^|\n]*(\|[^|\n]*\|)$", r"\1\2", text)
    return prose(text)


def prose(text: str) -> str:
    """The text outside fenced and inline code, heading ids and link targets."""
    text = INLINE_CODE.sub(" ", FENCE.sub(" ", text))
    return re.sub(r"\{#[\w-]+\}|\]\([^)]*\)", "] ", text)


def test_the_required_pages_are_translated_into_both_scripts() -> None:
    for language in TRANSLATED:
        for page in REQUIRED:
            assert (DOCS_DIR / language / page).is_file(), f"{language}/{page}"


@pytest.mark.parametrize(("language", "page"), TRANSLATIONS, ids=IDS)
def test_a_translation_has_every_section_of_its_english_page(language: str, page: str) -> None:
    assert page in PAGES, f"{language}/{page} translates no English page"
    assert set(re.findall(r'id="([^"]+)"', translated_html(language, page))) == anchors_of(page)

    def headings_of(text: str) -> list[str]:
        return [line for line in FENCE.sub("", text).splitlines() if line.startswith("#")]

    headings, english = headings_of(text_of(language, page)), headings_of(english_of(page))
    assert [h.split(" ")[0] for h in headings] == [h.split(" ")[0] for h in english], (
        "the headings' levels and order"
    )
    assert all(re.search(r" \{#[\w-]+\}$", heading) for heading in headings), "every heading an id"


@pytest.mark.parametrize(("language", "page"), TRANSLATIONS, ids=IDS)
def test_a_translation_keeps_the_code_and_the_figures(language: str, page: str) -> None:
    translated, english = text_of(language, page), english_of(page)
    assert FENCE.findall(translated) == FENCE.findall(english), "fenced code blocks differ"
    assert Counter(inline_code(translated)) == Counter(inline_code(english))
    assert Counter(NUMBER.findall(prose(translated))) == Counter(NUMBER.findall(prose(english)))
    html, english_html = translated_html(language, page), html_of(page)
    # (No <em>: Chinese marks a book's title with 《》, not italics.)
    for tag in ("<table>", "<tr>", "<td>", "<li>", "<sub>", "<strong>", "<pre>"):
        assert (tag, html.count(tag)) == (tag, english_html.count(tag))
    # attr_list reads "{...}" at the end of a cell or heading as attributes: a set such as {1}
    # must stay text (written \{1\} there), so the page shows every brace the English shows.
    assert html.count("{") == english_html.count("{")


@pytest.mark.parametrize(("language", "page"), TRANSLATIONS, ids=IDS)
def test_a_translation_links_where_its_english_page_links(language: str, page: str) -> None:
    targets = re.findall(r'href="([^"]+)"', translated_html(language, page))
    assert Counter(targets) == Counter(re.findall(r'href="([^"]+)"', html_of(page)))
    for target in targets:
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (
            ((DOCS_DIR / page).parent / path).resolve().relative_to(DOCS_DIR.resolve())
            if path
            else Path(page)
        )
        # The site serves the translation where there is one, the English page otherwise.
        translated = DOCS_DIR / language / linked
        assert linked.as_posix() in PAGES, f"{language}/{page} links to {target}"
        if anchor:
            ids = (
                set(re.findall(r'id="([^"]+)"', translated_html(language, linked.as_posix())))
                if translated.is_file()
                else anchors_of(linked.as_posix())
            )
            assert anchor in ids, f"{language}/{page} links to {target}"


@pytest.mark.parametrize(("language", "page"), TRANSLATIONS, ids=IDS)
def test_chinese_sentences_use_chinese_punctuation(language: str, page: str) -> None:
    # Sets of words written as in the English ({结婚, 的, 和}) are data, not sentences.
    text = re.sub(r"\{[^}#]*\}", " ", sentences(language, page))
    found = [m.group() for m in ASCII_PUNCTUATION_BY_CJK.finditer(text)]
    assert not found


@pytest.mark.parametrize(("language", "page"), TRANSLATIONS, ids=IDS)
def test_the_script_is_the_languages(language: str, page: str) -> None:
    # Characters that exist in one script only: 这/這, 时/時, 们/們, 为/為, 说/說, 对/對.
    simplified, traditional = set("这时们为说对个来"), set("這時們為說對個來")
    used = set(sentences(language, page))
    assert not used & (traditional if language == "zh-hans" else simplified)


def test_every_reference_into_docs_lands_on_a_section_of_each_translation() -> None:
    references = set()
    for path in repository_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in (CODE_REFERENCE, TEMPLATE_REFERENCE):
            references |= {(page, anchor) for page, anchor in pattern.findall(text) if anchor}
    checked = 0
    for language, page in TRANSLATIONS:
        ids = set(re.findall(r'id="([^"]+)"', translated_html(language, page)))
        for anchor in (anchor for linked, anchor in references if linked == page):
            assert anchor in ids, f"{language}/{page}#{anchor}"
            checked += 1
    assert checked  # scoring.md#domains at least


@pytest.mark.parametrize(
    ("accept", "language", "title"),
    [
        ("zh-CN", "zh-hans", "词的得分"),
        ("zh-TW", "zh-hant", "詞的得分"),
        ("en", "en", "Word scores"),
    ],
)
def test_the_reader_gets_the_page_in_their_language(
    client: Client, accept: str, language: str, title: str
) -> None:
    html = client.get("/docs/measures/scoring.md", headers={"accept-language": accept}).content
    page = html.decode()
    assert f'<article class="docs" lang="{language}"><h1 id="word-scores">{title}</h1>' in page
    assert f"<title>{title} · " in page
    assert "English original" not in page and "英文原文" not in page
    # Links to the same page in the other languages, the current one named but not linked.
    for code in ("en", "zh-hans", "zh-hant"):
        link = f'href="/docs/{code}/measures/scoring.md"'
        assert (link in page) == (code != language), code


@pytest.mark.parametrize(("language", "page"), TRANSLATIONS, ids=IDS)
def test_every_translation_is_served_to_its_readers(
    client: Client, language: str, page: str
) -> None:
    """Each translated file is the page the site serves: at the plain address to a reader of its
    language, and at its language's address to anyone, with the English page's first id."""
    source = DOCS_DIR / language / page
    title, _ = rendered(source, source.stat().st_mtime_ns)
    first_id = re.findall(r'<h1 id="([^"]+)"', html_of(page))[0]
    accept = {"zh-hans": "zh-CN", "zh-hant": "zh-TW"}[language]
    for url, headers in (
        (f"/docs/{page}", {"accept-language": accept}),
        (f"/docs/{language}/{page}", {"accept-language": "en"}),
    ):
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<article class="docs" lang="{language}"><h1 id="{first_id}">{title}</h1>' in html
        assert 'class="card muted"' not in html, url  # no "not translated yet" note


@pytest.mark.parametrize(
    ("url", "language"),
    [
        ("/docs/zh-hant/measures/scoring.md", "zh-hant"),
        ("/docs/zh-hans/measures/scoring.md", "zh-hans"),
        ("/docs/en/measures/scoring.md", "en"),
    ],
)
def test_a_language_in_the_address_wins_over_the_readers(
    client: Client, url: str, language: str
) -> None:
    for accept in ("en", "zh-CN", "zh-TW"):
        page = client.get(url, headers={"accept-language": accept}).content.decode()
        assert f'<article class="docs" lang="{language}"><h1 id="word-scores">' in page, accept


def test_an_untranslated_page_in_a_language_address_is_the_english_with_the_note(
    client: Client,
) -> None:
    page = client.get("/docs/zh-hant/operations.md").content.decode()
    # The note speaks the language the address asked for; the rest of the page the reader's.
    assert '<p class="card muted" lang="zh-hant">此頁尚未譯成中文，下面是英文原文。' in page
    assert "not been translated yet" not in page and '<article class="docs" lang="en">' in page
    assert '<html lang="en">' in page
    index = client.get("/docs/zh-hans/", headers={"accept-language": "zh-CN"})
    assert (
        '<h1 id="how-bakeoff-measures-segmentation">Bakeoff 如何衡量分词</h1>'
        in index.content.decode()
    )


@pytest.mark.parametrize(
    "path",
    [
        "zh-hans/../../manage.py",
        "zh-hans/../README.md/x.md",
        "measures/../zh-hans/measures/scoring.md",
        "zh-hans/zh-hant/measures/scoring.md",
        "zh-hant/missing.md",
        "zh-hans/measures/../../../README.md",
        "zh-hans/measures/nothing-here.md",  # a translation needs an English page; this has none
    ],
)
def test_a_language_address_serves_nothing_but_the_pages_of_docs(client: Client, path: str) -> None:
    assert client.get(f"/docs/{path}").status_code == 404


def test_the_language_menu_chooses_the_documentations_language(client: Client) -> None:
    # The menu's cookie, not only the browser's Accept-Language, decides which page a link opens.
    client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/docs/phases.md"})
    page = client.get("/docs/phases.md#post-bakeoff-runs", headers={"accept-language": "en"})
    html = page.content.decode()
    assert '<article class="docs" lang="zh-hant"><h1 id="phases-development-runs' in html
    assert '<h2 id="post-bakeoff-runs">賽後結果</h2>' in html


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_translated_index_marks_exactly_the_pages_still_in_english(language: str) -> None:
    index = text_of(language, "README.md")
    links = re.findall(r"\]\(([\w/-]+\.md)\)(（英文）)?", index)
    assert len({target for target, _ in links}) == len(PAGES) - 1  # all but the index itself
    for target, marked in links:
        translated = (DOCS_DIR / language / target).is_file()
        assert translated != bool(marked), f"{language}/README.md: {target}"
