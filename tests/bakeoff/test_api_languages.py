"""Every error of the API keeps its stable ``code`` and English ``detail`` and adds ``message`` in
the language the request's Accept-Language asks for (zh-hans, zh-hant, else English)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory
from django.utils import translation
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff import error_codes
from bakeoff.models import Site, Track
from tests.factories import PERFECT_RUN

URL = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/"


def api(user: User | None, language: str) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.mark.django_db
def test_a_missing_token_is_explained_in_the_readers_language(closed: Track) -> None:
    for language, message in [
        ("zh-CN,zh;q=0.9", "请发送您的令牌：Authorization: Token ..."),
        ("zh-TW", "請發送您的權杖：Authorization: Token ..."),
        ("fr, en;q=0.5", "Send your token: Authorization: Token ..."),
    ]:
        body = api(None, language).get(URL).json()
        assert body["code"] == "not_authenticated"
        assert body["detail"] == "Authentication credentials were not provided."
        assert body["message"] == message


@pytest.mark.django_db
def test_an_unknown_bakeoff_answers_not_found_in_chinese(participant: User) -> None:
    body = api(participant, "zh-hant").get("/api/bakeoffs/none/tracks/x/submissions/").json()
    assert (body["code"], body["detail"]) == ("not_found", "Not found.")
    assert body["message"] == "未找到，或您無權查看。"


@pytest.mark.django_db
def test_a_refusal_of_the_rules_keeps_its_own_words_translated(
    participant: User, closed: Track
) -> None:
    """Not registered: the service's own sentence, naming the track, in simplified Chinese."""
    run = SimpleUploadedFile("run.txt", PERFECT_RUN.encode(), content_type="text/plain")
    answer = api(participant, "zh-hans").post(URL, {"file": run}, format="multipart")
    body = answer.json()
    assert answer.status_code == 403
    assert body["code"] == "not_registered"
    assert body["detail"].startswith("Your site is not registered")
    assert closed.name in body["message"] and "参赛单位" in body["message"]


@pytest.mark.django_db
def test_an_error_of_the_views_own_is_translated(participant: User, site: Site) -> None:
    answer = api(participant, "zh-hans").post(URL, {"phase": "x"}, format="multipart")
    body = answer.json()
    assert (answer.status_code, body["code"]) == (400, "no_file")
    assert body["detail"] == "Send the run as the multipart field 'file'."
    assert body["message"] == "请以 multipart 字段“file”发送结果文件。"


def test_every_code_means_something_in_both_chinese_scripts() -> None:
    request = RequestFactory().get("/api/")
    for error in error_codes.ERRORS:
        with translation.override("en"):
            english = str(error.summary)
        for language in ("zh-hans", "zh-hant"):
            request.META["HTTP_ACCEPT_LANGUAGE"] = language
            assert error_codes.message(error.code, request) != english, (error.code, language)


def test_a_plain_english_text_gives_the_codes_meaning_to_a_chinese_reader() -> None:
    request = RequestFactory().get("/api/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert (
        error_codes.message("throttled", request, "Wait 30 s.")
        == "来自您地址的令牌认证失败次数过多。"
    )
    request.META["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert error_codes.message("throttled", request, "Wait 30 s.") == "Wait 30 s."


@pytest.mark.django_db
def test_an_address_the_api_does_not_have_answers_json(participant: User) -> None:
    answer = api(participant, "zh-hans").get("/api/bakeoffs/b2026/tracks/%0D/submissions/x/")
    assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
    assert answer.json() == {
        "code": "not_found",
        "detail": "Not found.",
        "message": "未找到，或您无权查看。",
    }


@pytest.mark.django_db
def test_a_page_that_does_not_exist_is_still_a_page(participant: User) -> None:
    answer = APIClient().get("/no-such-page/")
    assert answer.status_code == 404 and answer["Content-Type"].startswith("text/html")
