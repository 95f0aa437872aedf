"""A run or a gold standard with the wrong number of lines is refused in one sentence of the
reader's language that gives both counts; with many lines missing or added it asks whether the
file is the right one (issue 28)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

import scoring
from bakeoff.errors import InvalidFile
from bakeoff.models import Site
from tests.factories import GOLD, WORKED_RUN
from tests.hints import ClientFor

UPLOAD = "/bakeoffs/b2026/tracks/pk-closed/upload/"
GOLD_NEW = "/bakeoffs/b2026/corpora/PK/gold/new/"


def refusal(run: str, test: str, language: str, what: str = "run") -> str:
    with pytest.raises(scoring.ScoringError) as error:
        scoring.validate_run(run, test)
    with translation.override(language):
        return str(InvalidFile.from_scoring_error(error.value, what).message)


TEST_30 = "".join(f"第{n}句\n" for n in range(30))


def test_a_dropped_line_is_said_with_both_counts_in_each_language() -> None:
    run, test = "第0句\n第2句\n", "第0句\n第1句\n第2句\n"
    assert refusal(run, test, "en") == (
        "run: line 2, column 2: expected '1' (U+0031), found '2' (U+0032); the run has 2 lines "
        "and the test text 3: a line was dropped at or before this one"
    )
    assert refusal(run, test, "zh-hans") == (
        "结果：第 2 行第 2 列：应为 '1' (U+0031)，实为 '2' (U+0032)；结果有 2 行，测试文本有 3 行："
        "在这一行或之前少了一行"
    )
    assert "測試文本有 3 行：在這一行或之前少了一行" in refusal(run, test, "zh-hant")


def test_many_missing_lines_ask_whether_the_file_is_the_right_one() -> None:
    run = "".join(f"第{n}句\n" for n in range(12))
    assert refusal(run, TEST_30, "en").endswith(
        "the run has 12 lines and the test text 30: 18 lines are missing; is this the right file?"
    )
    assert refusal(run, TEST_30, "zh-hans").endswith(
        "结果有 12 行，测试文本有 30 行：缺少 18 行。文件是否选错了？"
    )
    assert refusal(run, TEST_30, "zh-hant").endswith(
        "結果有 12 行，測試文本有 30 行：缺少 18 行。檔案是否選錯了？"
    )
    assert "is this the right file?" not in refusal(TEST_30[:-5], TEST_30, "en")


def test_many_added_lines_and_an_empty_run_ask_too() -> None:
    assert refusal(TEST_30, TEST_30[:40], "zh-hans").endswith("多出 20 行。文件是否选错了？")
    assert refusal("", TEST_30, "zh-hans").endswith(
        "结果是一个空文件，而测试文本有 30 行：文件是否选错了？"
    )


def test_the_library_says_it_in_english_with_the_hint_too() -> None:
    with pytest.raises(scoring.LineCountError) as error:
        scoring.validate_run("第0句\n", TEST_30)
    assert (error.value.run_lines, error.value.reference_lines) == (1, 30)
    assert str(error.value).endswith(
        "the run has 1 lines and the test text 30: a line was dropped at or before here; "
        "is this the right file?"
    )


@pytest.mark.django_db
def test_the_upload_page_refuses_a_short_run_in_chinese(
    site: Site, participant: User, client_for: ClientFor
) -> None:
    short = WORKED_RUN.split("\n", 1)[1]
    answer = client_for(participant).post(
        UPLOAD,
        {"file": SimpleUploadedFile("run.txt", short.encode())},
        headers={"accept-language": "zh-CN"},
    )
    page = answer.content.decode()
    assert "结果有 2 行，测试文本有 3 行：在这一行或之前少了一行" in page
    assert "lines and the test text" not in page and "dropped" not in page


@pytest.mark.django_db
def test_a_gold_with_a_line_too_few_is_refused_in_chinese(
    site: Site, organiser: User, client_for: ClientFor
) -> None:
    short = GOLD.split("\n", 1)[1]
    answer = client_for(organiser).post(
        GOLD_NEW,
        {"gold": SimpleUploadedFile("gold.txt", short.encode()), "note": "fixed"},
        headers={"accept-language": "zh-TW"},
    )
    page = answer.content.decode()
    assert "標準答案有 2 行，測試文本有 3 行：兩者必須每句一行，行數相同" in page
    assert "must have one line" not in page
