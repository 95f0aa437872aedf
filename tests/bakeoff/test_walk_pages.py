"""What a person meets walking a contest in Chinese: the messages after registering and
uploading, the corpus page's files, the receipt's time in their zone (how the pages look, dates
kept whole and wide values inside the page, is measured in a browser: test_appearance.py)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from bakeoff.models import Bakeoff, Corpus, Site
from tests.factories import PERFECT_RUN, track
from tests.hints import ClientFor

UPLOAD = "/bakeoffs/b2026/tracks/pk-closed/upload/"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_the_registration_message_is_in_the_readers_language(
    client_for: ClientFor, participant: User, corpus: Corpus
) -> None:
    client = client_for(participant)
    registration = {
        "name": "走查队",
        "institution": "Zed Institute",
        "country": "CN",
        "commercial_product": "no",
        "tracks": [track(corpus).pk],
    }
    first = client.post(
        "/bakeoffs/b2026/register/",
        registration,
        headers={"accept-language": "zh-CN"},
        follow=True,
    ).content.decode()
    assert "已报名。组织者将逐项确认测试项。" in first and "Registered." not in first
    again = client.post(
        "/bakeoffs/b2026/register/",
        registration,
        headers={"accept-language": "zh-TW"},
        follow=True,
    ).content.decode()
    assert "PKc：沒有變化（等待批准）。" in again
    assert "nothing changed" not in again


def test_the_corpus_page_names_its_files_in_the_readers_language(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    shown = client_for(participant).get(
        "/bakeoffs/b2026/corpora/PK/", headers={"accept-language": "zh-CN"}
    )
    text = shown.content.decode()
    assert shown.status_code == 200
    assert ">测试文本</a>" in text and "b2026-pk-test.utf8" in text
    assert ">test</a>" not in text and ">training-words</a>" not in text


def test_the_receipt_gives_the_time_in_the_readers_zone_too(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    client = client_for(participant)
    client.cookies["bakeoff_tz"] = "America/New_York"
    answer = client.post(
        UPLOAD,
        {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())},
        headers={"accept-language": "zh-CN"},
        follow=True,
    )
    text = answer.content.decode()
    assert "UTC 收到（America/New_York 时间 " in text


def test_the_receipt_says_utc_once_for_a_reader_in_utc(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    client = client_for(participant)
    client.cookies["bakeoff_tz"] = "UTC"
    answer = client.post(
        UPLOAD, {"file": SimpleUploadedFile("run.txt", PERFECT_RUN.encode())}, follow=True
    )
    text = answer.content.decode()
    assert "Run accepted at " in text and "UTC." in text and "(UTC" not in text


def test_the_organisers_bar_is_all_in_chinese(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff
) -> None:
    page = (
        client_for(organiser)
        .get("/bakeoffs/b2026/", headers={"accept-language": "zh-CN"})
        .content.decode()
    )
    assert ">已发送的邮件</a>" in page and "Mail sent" not in page


def test_the_help_texts_link_to_the_phases_page(
    client_for: ClientFor, participant: User, organiser: User, site: Site
) -> None:
    link = '<a href="/docs/phases.md">阶段说明</a>'
    upload = client_for(participant).get(UPLOAD, headers={"accept-language": "zh-CN"})
    edit = client_for(organiser).get("/bakeoffs/b2026/edit/", headers={"accept-language": "zh-CN"})
    assert link in upload.content.decode()
    assert edit.content.decode().count(link) == 2


def test_the_audit_filter_asks_for_a_first_day_not_a_computation(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff
) -> None:
    page = (
        client_for(organiser)
        .get("/bakeoffs/b2026/audit/", headers={"accept-language": "zh-CN"})
        .content.decode()
    )
    assert "起始日期" in page and "计算方式" not in page


def test_the_corpus_page_names_the_bucket_scheme_not_its_code(
    client_for: ClientFor, participant: User, site: Site
) -> None:
    page = (
        client_for(participant)
        .get("/bakeoffs/b2026/corpora/PK/", headers={"accept-language": "zh-CN"})
        .content.decode()
    )
    assert "本项目自己的定义" in page and "default)" not in page


def test_the_participants_page_puts_a_registrations_status_in_full_width_brackets(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, site: Site
) -> None:
    bakeoff.organisers.add(organiser)
    page = client_for(organiser).get(
        "/bakeoffs/b2026/participants/", headers={"accept-language": "zh-CN"}
    )
    text = page.content.decode()
    assert page.status_code == 200
    assert "PKc（已批准）" in text and "PKc (" not in text
