"""WCAG 3.1.2 (language of parts): an English page marks the Chinese of its data ``lang="zh"``
(``bakeoff_tags.language_marked`` on every page's content, through ``chinese_marked``), so that a
screen reader reads a site's, a corpus's or a gold word's Chinese with a Chinese voice. What must
stay as it is stays: the text of a form's field (saved again as it is shown), a plot, a menu's
options, a script, and an element that names its own language; a Chinese page adds nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from bakeoff.templatetags.bakeoff_tags import chinese_marked, language_marked
from tests.factories import make_bakeoff, make_user

ZH = '<span lang="zh">'


def test_a_run_of_chinese_in_text_is_marked_and_tags_are_left_alone() -> None:
    html = '<p title="北京">我们 在 北京</p><td>和</td>'
    assert chinese_marked(html) == (
        f'<p title="北京">{ZH}我们</span> {ZH}在</span> {ZH}北京</span></p><td>{ZH}和</span></td>'
    )


@pytest.mark.parametrize(
    "element",
    [
        "<textarea name='d'>中文 描述</textarea>",
        "<script>const s = '中文';</script>",
        "<style>/* 中文 */</style>",
        "<title>中文</title>",
        '<svg><text x="1">北京<tspan>大学</tspan></text></svg>',
        '<select><option value="a">北京</option></select>',
        '<strong lang="zh-hant">繁體中文</strong>',
        '<div lang="zh-hans"><div>外</div>里</div>',
    ],
)
def test_what_must_stay_as_it_is_stays_and_the_text_after_it_is_marked(element: str) -> None:
    assert chinese_marked(f"{element}后") == f"{element}{ZH}后</span>"


def test_a_void_element_with_a_language_leaves_the_text_after_it_marked() -> None:
    html = '<img lang="zh" alt="图">北京<br>天气'
    assert chinese_marked(html) == f'<img lang="zh" alt="图">{ZH}北京</span><br>{ZH}天气</span>'


def test_a_chinese_page_adds_nothing() -> None:
    with translation.override("zh-hans"):
        assert language_marked("<p>北京 English</p>") == "<p>北京 English</p>"
    with translation.override("en"):
        assert language_marked("<p>北京 English</p>") == f"<p>{ZH}北京</span> English</p>"


@pytest.mark.django_db
def test_an_english_page_marks_the_chinese_of_its_data_and_its_fields_keep_theirs(
    client_for: Any,
) -> None:
    organiser = make_user("olga", is_staff=True)
    make_bakeoff(organiser=organiser, name="第二届 Bakeoff", description="中文 描述")
    client = client_for(organiser)
    page = client.get("/bakeoffs/b2026/", headers={"accept-language": "en"}).content.decode()
    assert f"<h1>{ZH}第二届</span> Bakeoff</h1>" in page
    assert "<title>第二届 Bakeoff" in page  # the title is the window's, left as it is
    chinese = client.get("/bakeoffs/b2026/", headers={"accept-language": "zh-CN"}).content.decode()
    assert "<h1>第二届 Bakeoff</h1>" in chinese and ZH not in chinese
    # the edit form shows the description as it is stored: saved again, it is unchanged
    edit = client.get("/bakeoffs/b2026/edit/", headers={"accept-language": "en"}).content.decode()
    textarea = edit[edit.index('<textarea name="description"') :]
    assert textarea[textarea.index(">") + 1 :].startswith("\n中文 描述</textarea>")
    assert 'value="第二届 Bakeoff"' in edit
