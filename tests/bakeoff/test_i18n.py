"""The interface in English, 简体中文 and 繁體中文: the language from Accept-Language or the menu
(kept for a logged-in reader), URLs unchanged, the API in English with a code on every error, times
in the reader's zone too, the time left before the next date, and catalogues with nothing left
untranslated."""

from __future__ import annotations

import gettext
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bakeoff.models import Bakeoff, ReaderSettings, Site
from config import catalogues
from tests.factories import PERFECT_RUN
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

UPLOAD = "/bakeoffs/b2026/tracks/pk-closed/upload/"
API = "/api/bakeoffs/b2026/tracks/pk-closed/submissions/"


def page(client: Client, path: str, **headers: str) -> str:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, path
    return answer.content.decode()


@pytest.mark.parametrize(
    ("accept", "lang", "words"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.5", "zh-hans", ["分词评测", "登录", "注册"]),
        ("zh-SG", "zh-hans", ["分词评测", "登录"]),
        ("zh-TW,zh;q=0.8", "zh-hant", ["分詞評測", "登入", "註冊"]),
        ("zh-HK", "zh-hant", ["分詞評測", "登入"]),
        ("en-GB,en", "en", ["Bakeoff", "Log in", "Sign up"]),
        ("fr-FR", "en", ["Bakeoff", "Log in"]),
    ],
)
def test_the_language_follows_accept_language(
    anonymous: Client, bakeoff: Bakeoff, accept: str, lang: str, words: list[str]
) -> None:
    home = page(anonymous, "/", accept_language=accept)
    assert f'<html lang="{lang}">' in home
    for word in words:
        assert word in home


def test_every_page_has_the_language_menu(anonymous: Client, bakeoff: Bakeoff) -> None:
    for path in ("/", "/bakeoffs/b2026/", "/docs/", "/accounts/login/", "/bakeoffs/b2026/results/"):
        shown = page(anonymous, path)
        assert 'class="language-menu" method="post" action="/i18n/setlang/"' in shown, path
        assert ">简体中文</option>" in shown and ">繁體中文</option>" in shown, path


def test_the_menu_switches_the_language_and_keeps_the_url(
    anonymous: Client, bakeoff: Bakeoff
) -> None:
    answer = anonymous.post("/i18n/setlang/", {"language": "zh-hant", "next": "/bakeoffs/b2026/"})
    assert answer.status_code == 302 and answer["Location"] == "/bakeoffs/b2026/"
    shown = page(anonymous, "/bakeoffs/b2026/", accept_language="en")
    assert "日程表" in shown and "報名截止" in shown
    anonymous.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    assert "日程表" in page(anonymous, "/bakeoffs/b2026/") and "报名截止" in page(
        anonymous, "/bakeoffs/b2026/"
    )


def test_a_logged_in_readers_language_follows_them_to_another_browser(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff
) -> None:
    client_for(participant).post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    assert ReaderSettings.objects.get(user=participant).language == "zh-hant"
    elsewhere = Client()
    elsewhere.force_login(participant)
    assert '<html lang="zh-hant">' in page(elsewhere, "/", accept_language="en")


def test_the_account_page_sets_language_and_zone(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff
) -> None:
    client = client_for(participant)
    answer = client.post("/account/", {"language": "zh-hans", "time_zone": "Europe/Paris"})
    assert answer.status_code == 302
    chosen = ReaderSettings.objects.get(user=participant)
    assert (chosen.language, chosen.time_zone) == ("zh-hans", "Europe/Paris")
    shown = page(client, "/bakeoffs/b2026/")
    assert "设置已保存" in shown
    deadline = bakeoff.submission_deadline.astimezone(timezone.get_default_timezone())
    paris = bakeoff.submission_deadline.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Paris"))
    assert f"{paris:%Y-%m-%d %H:%M} (Europe/Paris)" in shown
    assert f"{deadline:%Y-%m-%d %H:%M} UTC" in shown
    assert client.post("/account/", {"time_zone": "Mars/Olympus"}).status_code == 200


def test_times_are_shown_in_the_browsers_zone_too(anonymous: Client, bakeoff: Bakeoff) -> None:
    from zoneinfo import ZoneInfo

    anonymous.cookies["bakeoff_tz"] = "America/New_York"
    shown = page(anonymous, "/bakeoffs/b2026/")
    deadline = bakeoff.submission_deadline
    assert f"{deadline.astimezone(ZoneInfo('Asia/Shanghai')):%Y-%m-%d %H:%M} CST" in shown
    assert (
        f"{deadline.astimezone(ZoneInfo('America/New_York')):%Y-%m-%d %H:%M} (America/New_York)"
        in shown
    )
    # A zone already shown (the bakeoff's) is not shown twice; a bad cookie is ignored.
    anonymous.cookies["bakeoff_tz"] = "Asia/Shanghai"
    assert '(Asia/Shanghai)</span> <span class="reader">' not in page(anonymous, "/bakeoffs/b2026/")
    anonymous.cookies["bakeoff_tz"] = "Nowhere/<script>"
    assert 'class="reader"' not in page(anonymous, "/bakeoffs/b2026/")


def test_the_bakeoff_page_shows_the_time_left_before_the_next_date(
    anonymous: Client, bakeoff: Bakeoff
) -> None:
    bakeoff.registration_closes = timezone.now() + timedelta(days=1, hours=3, minutes=10)
    bakeoff.save()
    english = page(anonymous, "/bakeoffs/b2026/", accept_language="en")
    assert "Next: Registration closes" in english
    assert "1 day 3 hours left" in english
    chinese = page(anonymous, "/bakeoffs/b2026/", accept_language="zh-CN")
    assert "下一项：报名截止" in chinese and "还剩 1 天 3 小时" in chinese
    assert "已过去 9 天" in chinese  # the training data, released nine days ago


def test_it_says_plainly_when_every_date_has_passed(anonymous: Client, bakeoff: Bakeoff) -> None:
    past = timezone.now() - timedelta(hours=2, minutes=5)
    Bakeoff.objects.filter(pk=bakeoff.pk).update(
        registration_closes=past - timedelta(days=3),
        test_released=past - timedelta(days=2),
        submission_deadline=past,
        results_published=past,
    )
    assert "Every date of the timetable has passed." in page(anonymous, "/bakeoffs/b2026/")
    assert "日程表上的所有日期均已过去" in page(
        anonymous, "/bakeoffs/b2026/", accept_language="zh-CN"
    )


def test_the_upload_page_counts_down_to_the_deadline_and_says_when_it_passed(
    client_for: ClientFor, participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    client = client_for(participant)
    assert "还剩 1 天 23 小时" in page(client, UPLOAD, accept_language="zh-CN")
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=30)
    bakeoff.save()
    shown = page(client, UPLOAD, accept_language="zh-TW")
    assert "已過去 30 分鐘" in shown or "已過去 29 分鐘" in shown
    assert "提交截止時間已過" in shown


def test_an_upload_refusal_keeps_its_facts_in_chinese(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    client = client_for(participant)
    dropped = "".join(PERFECT_RUN.splitlines(True)[:2]).encode()
    answer = client.post(
        UPLOAD,
        {"file": SimpleUploadedFile("run.txt", dropped)},
        headers={"accept-language": "zh-CN"},
    )
    shown = answer.content.decode()
    assert "第 3 行第 1 列：应为" in shown and "实为 行尾" in shown
    answer = client.post(
        UPLOAD,
        {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode("gb18030"))},
        headers={"accept-language": "zh-TW"},
    )
    assert "結果：第 1 行：該行偏移" in answer.content.decode()  # the file is named, in Chinese
    # and the encoding it does decode in: what to do is said
    assert "該檔案可按 gb18030 解碼：請另存為 utf-8 後重新上傳。" in answer.content.decode()
    assert "run:" not in answer.content.decode()


def test_an_identical_run_and_a_full_site_are_refused_in_chinese(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    client = client_for(participant)
    first = client.post(UPLOAD, {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())})
    assert first.status_code == 302
    again = client.post(
        UPLOAD,
        {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())},
        headers={"accept-language": "zh-CN"},
    ).content.decode()
    assert "该结果与您在 PKc 的结果 1 完全相同" in again and "identical" not in again
    second = PERFECT_RUN.replace("结婚", "结 婚", 1).encode()
    client.post(UPLOAD, {"file": SimpleUploadedFile("run.txt", second)})
    full = page(client, UPLOAD, accept_language="zh-TW")
    assert "貴參賽單位已提交 PKc 允許的 2 組結果" in full and "Withdraw one" not in full


def test_an_open_track_run_without_its_statement_is_refused_in_chinese(
    client_for: ClientFor, site: Site, bakeoff: Bakeoff
) -> None:
    from tests.factories import rival, track

    open_track = track(bakeoff.corpora.get(), "open")
    user, _ = rival(bakeoff, open_track)
    answer = client_for(user).post(
        f"/bakeoffs/b2026/tracks/{open_track.slug}/upload/",
        {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())},
        headers={"accept-language": "zh-CN"},
    )
    shown = answer.content.decode()
    assert "是开放测试" in shown and "is an open track" not in shown


def api(user: User, **headers: str) -> APIClient:
    client = APIClient()
    token = Token.objects.create(user=user).key
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}", **headers)
    return client


def test_the_api_answers_in_english_with_a_code_on_every_error_and_a_message_in_chinese(
    participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    client = api(participant, HTTP_ACCEPT_LANGUAGE="zh-CN")
    dropped = "".join(PERFECT_RUN.splitlines(True)[:2]).encode()
    wrong = client.post(API, {"file": SimpleUploadedFile("r.txt", dropped)}).json()
    assert wrong["code"] == "line_count" and wrong["line"] == 3
    assert wrong["detail"].startswith("line 3, column 1: expected")
    encoding = PERFECT_RUN.encode("gb18030")
    assert (
        client.post(API, {"file": SimpleUploadedFile("r.txt", encoding)}).json()["code"]
        == "encoding"
    )
    assert client.post(API, {}).json() == {
        "code": "no_file",
        "detail": "Send the run as the multipart field 'file'.",
        "message": "请以 multipart 字段“file”发送结果文件。",
    }
    missing = client.get(API.replace("pk-closed", "xx"))
    assert missing.status_code == 404 and missing.json() == {
        "code": "not_found",
        "detail": "Not found.",
        "message": "未找到，或您无权查看。",
    }
    stranger = APIClient()
    stranger.credentials(HTTP_ACCEPT_LANGUAGE="zh-CN")
    anonymous = stranger.get(API)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    assert anonymous.json()["detail"] == "Authentication credentials were not provided."
    assert client.delete(API).json()["code"] == "method_not_allowed"
    bakeoff.submission_deadline = timezone.now() - timedelta(minutes=1)
    bakeoff.save()
    late = client.post(API, {"file": SimpleUploadedFile("r.txt", PERFECT_RUN.encode())})
    assert late.status_code == 403 and late.json()["code"] == "deadline_passed"
    assert "deadline" in late.json()["detail"]
    assert "截止" in late.json()["message"]


def test_the_catalogues_leave_nothing_untranslated() -> None:
    for path in catalogues.catalogues():
        assert catalogues.problems(path) == []
        assert catalogues.count(path) > 0


def test_the_catalogue_check_finds_fuzzy_untranslated_and_wrong_placeholders(
    tmp_path: Path,
) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\nmsgid "Save"\nmsgstr "保存"\n\n'
        'msgid "Log in"\nmsgstr ""\n\n'
        '#, python-format\nmsgid "%(count)d day"\nmsgid_plural "%(count)d days"\n'
        'msgstr[0] "%(n)d 天"\n\n'
        'msgid "Docs"\nmsgstr ""\n"文档"\n',
        encoding="utf-8",
    )
    found = catalogues.problems(po)
    assert [line.split(": ", 1)[1] for line in found] == [
        "fuzzy: 'Save'",
        "untranslated: 'Log in'",
        "placeholders differ: '%(count)d day'",
    ]


def test_the_catalogue_check_wants_the_headers_plural_forms_and_the_count_in_a_single_form(
    tmp_path: Path,
) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
        '#, python-format\nmsgid "%(count)s site invited."\n'
        'msgid_plural "%(count)s sites invited."\n'
        'msgstr[0] "已邀请参赛单位。"\n\n'
        '#, python-format\nmsgid "%(count)d day"\nmsgid_plural "%(count)d days"\n'
        'msgstr[0] "%(count)d 天"\nmsgstr[1] "%(count)d 天"\n\n'
        '#, python-format\nmsgid "one run of %(name)s"\nmsgid_plural "%(count)d runs of %(name)s"\n'
        'msgstr[0] "%(name)s 的 %(count)d 组结果"\n',
        encoding="utf-8",
    )
    assert catalogues.plural_forms(po) == 1
    found = catalogues.problems(po)
    assert [line.split(": ", 1)[1] for line in found] == [
        "placeholders differ: '%(count)s site invited.'",
        "2 plural forms, not 1: '%(count)d day'",
    ]


def test_mail_is_in_the_language_the_recipient_chose(
    client_for: ClientFor,
    participant: User,
    site: Site,
    mailoutbox: list[EmailMessage],
    on_commit: OnCommit,
) -> None:
    participant.email = "pat@example.org"
    participant.save()
    ReaderSettings.objects.create(user=participant, language="zh-hant")
    with on_commit():
        client_for(participant).post(
            UPLOAD, {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())}
        )
    receipt = next(m for m in mailoutbox if "PKc" in m.subject and "回執" in m.subject)
    assert "您的第 1 組結果已收到" in str(receipt.body)
    assert "截止時間" in str(receipt.body)


@pytest.mark.parametrize(
    ("accept", "words"),
    [
        ("zh-CN", ["审计记录", "筛选", "下载 CSV", "操作者", "所有操作", "结果评分失败"]),
        ("zh-TW", ["審計記錄", "篩選", "下載 CSV", "操作者", "所有操作", "結果評分失敗"]),
        ("en", ["Audit trail", "Filter", "Download as CSV", "Who", "every action", "Run failed"]),
    ],
)
def test_the_audit_trail_speaks_the_readers_language(
    client_for: Any, organiser: User, bakeoff: Bakeoff, accept: str, words: list[str]
) -> None:
    shown = page(client_for(organiser), "/bakeoffs/b2026/audit/", accept_language=accept)
    for word in words:
        assert word in shown


def test_the_catalogues_build_without_gettext(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh machine without gettext's msgfmt builds the .mo files with polib (make demo)."""
    monkeypatch.setenv("PATH", str(tmp_path))  # no msgfmt to be found
    mo = tmp_path / "django.mo"
    catalogues.build(catalogues.LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po", mo)
    with mo.open("rb") as compiled:
        built = gettext.GNUTranslations(compiled)
    assert built.gettext("superseded") == "已被取代"
    singular = "%(count)d run of %(corpus)s queued for scoring again"
    plural = "%(count)d runs of %(corpus)s queued for scoring again"
    for count in (1, 2):
        assert (
            built.ngettext(singular, plural, count) == "%(corpus)s 的 %(count)d 组结果重新排队评分"
        )


def test_the_catalogue_check_finds_ascii_punctuation_in_chinese(tmp_path: Path) -> None:
    po = tmp_path / "zh_Hans" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Peking University, China"\nmsgstr "北京大学, 中国"\n\n'
        'msgid "(at most 5 a day)."\nmsgstr "(每天最多 5 组)."\n\n'
        'msgid "Done."\nmsgstr "完成。"\n\n'
        '#, python-format\nmsgid "F: %(f)s (see <a href=\\"%(url)s\\">x</a>)"\n'
        'msgstr "F 值：%(f)s（见<a href=\\"%(url)s\\">定义</a>）"\n',
        encoding="utf-8",
    )
    found = catalogues.problems(po)
    assert len(found) == 2, found
    assert "ASCII punctuation in Chinese ('学,')" in found[0]
    assert "'Peking University, China'" in found[0] and "'(at most 5 a day).'" in found[1]
