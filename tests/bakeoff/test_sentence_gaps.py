"""Where English leaves a space and Chinese leaves none: between two sentences (after 。) and
before a full-width parenthesis. ``{% gap %}`` in templates and ``errors.sentences`` in messages
ask the catalogue, so an English page keeps its spaces and a Chinese one loses them. The walk of
every Chinese page checks the pages themselves (test_chinese_walk.py)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from bakeoff.errors import gap, sentences

PAGE = Template(
    "{% load i18n bakeoff_tags %}"
    '{% translate "Results" %}{% gap %}{% translate "published" as text %}'
    "{% blocktranslate %}({{ text }}){% endblocktranslate %}{% gap %}"
    '{% translate "The organisers will decide on each track." %}'
)


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "Results (published) The organisers will decide on each track."),
        ("zh-hans", "评测成绩（已公布）组织者将逐项决定。"),
        ("zh-hant", "評測成績（已公布）組織者將逐項決定。"),
    ],
)
def test_a_gap_is_a_space_in_english_only(language: str, shown: str) -> None:
    with translation.override(language):
        assert gap() == ("" if language.startswith("zh") else " ")
        assert PAGE.render(Context()) == shown


def test_sentences_are_joined_as_the_language_joins_them() -> None:
    parts = ["Registered for PKc.", "The organisers will decide on each track."]
    assert str(sentences(parts)) == " ".join(parts)
    with translation.override("zh-hant"):
        assert str(sentences(["甲。", "乙。"])) == "甲。乙。"
    assert str(sentences([])) == ""
