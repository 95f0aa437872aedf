"""Every form of the interface speaks the reader's language: its title, the label of each field
(Django would otherwise make one from the field's English name), its choices and its errors."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType
from typing import Any

import pytest
from django import forms
from django.contrib.auth.models import User
from django.utils import translation

import bakeoff.forms
import bakeoff.views.phases
import leaderboard.forms
import notifications.forms
import psychometric.forms
from bakeoff.models import Bakeoff, Corpus, Registration
from tests.factories import make_bakeoff, make_site, track

MODULES: list[ModuleType] = [
    # bakeoff's forms, one module per subject
    *(
        importlib.import_module(info.name)
        for info in pkgutil.iter_modules(bakeoff.forms.__path__, "bakeoff.forms.")
    ),
    bakeoff.views.phases,  # the development set's form
    leaderboard.forms,
    notifications.forms,
    psychometric.forms,
]
SAME_IN_EVERY_LANGUAGE = {"PDF", "K"}


def form_classes() -> list[type[forms.Form | forms.ModelForm[Any]]]:
    return [
        cls
        for module in MODULES
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, (forms.Form, forms.ModelForm)) and cls.__module__ == module.__name__
    ]


def in_language(language: str, text: Any) -> str:
    with translation.override(language):
        return str(text)


@pytest.mark.parametrize("form", form_classes(), ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_every_field_has_a_translated_label(
    form: type[forms.Form | forms.ModelForm[Any]], language: str
) -> None:
    untranslated = [
        name
        for name, field in form.base_fields.items()
        if field.label is None
        or (
            in_language(language, field.label) == in_language("en", field.label)
            and str(field.label) not in SAME_IN_EVERY_LANGUAGE
        )
    ]
    assert untranslated == []


@pytest.mark.parametrize(
    ("accept", "words", "english"),
    [
        ("zh-CN", ["新建语料库", "名称", "缩写", "封闭测试", "每个参赛单位的结果数"], "Max runs"),
        ("zh-TW", ["新建語料庫", "名稱", "縮寫", "封閉測試", "每個參賽單位的結果數"], "Max runs"),
    ],
)
def test_the_new_corpus_page_is_in_chinese(
    client_for: Any, organiser: User, bakeoff: Bakeoff, accept: str, words: list[str], english: str
) -> None:
    answer = client_for(organiser).get(
        f"/bakeoffs/{bakeoff.slug}/corpora/new/", headers={"accept-language": accept}
    )
    shown = answer.content.decode()
    assert answer.status_code == 200
    for word in words:
        assert word in shown
    for word in (english, "New corpus", "Abbreviation:", "Closed track:"):
        assert word not in shown


def test_the_timetable_form_is_in_chinese(
    client_for: Any, organiser: User, bakeoff: Bakeoff
) -> None:
    answer = client_for(organiser).get(
        f"/bakeoffs/{bakeoff.slug}/edit/", headers={"accept-language": "zh-CN"}
    )
    shown = answer.content.decode()
    assert "报名开始" in shown and "按评测所在时区。" in shown
    assert "In the bakeoff's time zone." not in shown and "Grace minutes" not in shown


def test_a_timetable_error_is_in_chinese(
    client_for: Any, organiser: User, bakeoff: Bakeoff
) -> None:
    form_data = {
        "name": bakeoff.name,
        "slug": bakeoff.slug,
        "time_zone": "UTC",
        "registration_opens": "2026-03-02T00:00",
        "registration_closes": "2026-03-01T00:00",
        "training_released": "2026-03-01T00:00",
        "test_released": "2026-03-03T00:00",
        "submission_deadline": "2026-03-04T00:00",
    }
    answer = client_for(organiser).post(
        f"/bakeoffs/{bakeoff.slug}/edit/", form_data, headers={"accept-language": "zh-CN"}
    )
    assert "报名截止时间必须晚于报名开始时间。" in answer.content.decode()


def test_the_registration_decision_and_the_yes_no_answers_are_translated() -> None:
    decision = bakeoff.forms.DecisionForm().fields["decision"]
    commercial = bakeoff.forms.RegistrationForm.base_fields["commercial_product"]
    assert isinstance(decision, forms.ChoiceField) and isinstance(commercial, forms.ChoiceField)
    with translation.override("zh-hans"):
        assert [str(label) for _, label in list(decision.choices)] == ["批准", "拒绝"]  # type: ignore[arg-type]
        assert [str(label) for _, label in list(commercial.choices)] == ["是", "否"]  # type: ignore[arg-type]


def test_a_taken_address_is_refused_in_the_readers_words(
    client_for: Any, organiser: User, bakeoff: Bakeoff
) -> None:
    other = make_bakeoff(slug="other", organiser=organiser)
    data = {
        "name": other.name,
        "slug": "b2026",
        "time_zone": "UTC",
        "registration_opens": "2026-03-01T00:00",
        "registration_closes": "2026-03-02T00:00",
        "training_released": "2026-03-01T00:00",
        "test_released": "2026-03-03T00:00",
        "submission_deadline": "2026-03-04T00:00",
    }
    for accept, words in (
        ("zh-CN", "已有其他评测在网址中使用这个简称，请另选一个。"),
        ("zh-TW", "已有其他評測在網址中使用這個簡稱，請另選一個。"),
        ("en", "Another bakeoff already has this short name in its address; choose another."),
    ):
        answer = client_for(organiser).post(
            "/bakeoffs/other/edit/", data, headers={"accept-language": accept}
        )
        shown = answer.content.decode()
        assert words in shown
        assert "Slug" not in shown and "具有" not in shown


def test_an_approval_is_told_in_the_readers_language(
    client_for: Any, organiser: User, bakeoff: Bakeoff, corpus: Corpus, participant: User
) -> None:
    make_site(bakeoff, participant, [track(corpus)], name="SXU", approved=False)
    pending = Registration.objects.get()
    answer = client_for(organiser).post(
        f"/bakeoffs/b2026/registrations/{pending.pk}/decide/",
        {"decision": "approve"},
        headers={"accept-language": "zh-CN"},
        follow=True,
    )
    shown = answer.content.decode()
    assert "已批准：SXU 报名 PKc。" in shown and " for PKc" not in shown


def test_the_development_set_form_names_its_files_in_chinese(
    client_for: Any, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    answer = client_for(organiser).get(
        "/bakeoffs/b2026/corpora/PK/development/", headers={"accept-language": "zh-TW"}
    )
    shown = answer.content.decode()
    assert "開發集標準答案" in shown and "開發文本" in shown
    assert "Gold:" not in shown and "Text:" not in shown
