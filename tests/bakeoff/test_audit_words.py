"""The audit trail says everything in its reader's words: events by their labels (the code only
to hover), a refusal stored in English shown in the reader's language, and details that are
lists or mappings (a timetable's changes, an erratum's) as sentences, never as a raw dict."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from bakeoff import audit
from bakeoff.audit_text import detail_value, shown_details
from bakeoff.models import AuditEntry, Site
from tests.factories import WORKED_RUN
from tests.hints import ClientFor

UPLOAD = "/bakeoffs/b2026/tracks/pk-closed/upload/"
PAGE = "/bakeoffs/b2026/audit/"


@pytest.mark.django_db
def test_a_refused_upload_reads_in_the_readers_language(
    site: Site, participant: User, organiser: User, client_for: ClientFor
) -> None:
    short = WORKED_RUN.split("\n", 1)[1]
    client_for(participant).post(UPLOAD, {"file": SimpleUploadedFile("run.txt", short.encode())})
    entry = AuditEntry.objects.get(action=audit.RUN_REFUSED)
    assert "the run has 2 lines and the test text 3" in entry.details["reason"]  # the record
    for accept, words in (
        ("zh-CN", "结果有 2 行，测试文本有 3 行"),
        ("zh-TW", "結果有 2 行，測試文本有 3 行"),
        ("en", "the run has 2 lines and the test text 3"),
    ):
        page = client_for(organiser).get(PAGE, headers={"accept-language": accept})
        html = page.content.decode()
        assert words in html
        assert "<code>run.refused</code>" not in html and 'title="run.refused"' in html
        assert "in_languages" not in html
    chinese = client_for(organiser).get(PAGE, headers={"accept-language": "zh-CN"}).content
    assert "lines and the test text" not in chinese.decode()


def test_an_erratums_changes_read_as_a_sentence_not_a_dict() -> None:
    moved = [
        {"track": "pk-closed", "name": "PKc", "gold": [1, 2], "runs": [{"label": "S01"}]},
        {"track": "pk-open", "name": "PKo", "gold": [1, 2], "runs": [{}, {}]},
    ]
    with translation.override("en"):
        assert str(detail_value("changes", moved)) == "PKc: 1 run moved; PKo: 2 runs moved"
    with translation.override("zh-hans"):
        assert str(detail_value("changes", moved)) == "PKc：1 个结果有变动；PKo：2 个结果有变动"


def test_a_timetables_changes_yes_no_and_decisions_read_in_words() -> None:
    details = {
        "changes": {"submission_deadline": ["2026-03-01T12:00:00Z", "2026-03-02T12:00:00Z"]},
        "after_test_release": True,
        "decision": "late",
    }
    with translation.override("zh-hant"):
        shown = {key: str(value) for key, _label, value, _code in shown_details(details, "zh-hant")}
    assert shown["after_test_release"] == "是"
    assert shown["decision"] == "標記為逾期，不參與排名"
    assert shown["changes"].endswith("2026-03-01T12:00:00Z → 2026-03-02T12:00:00Z")
    assert "{" not in shown["changes"] and "submission_deadline" not in shown["changes"]
