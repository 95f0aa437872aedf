"""Why a run failed is shown in the reader's language: the reason is kept as a code and its
values beside the English text (which the API answers and old rows have)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.utils import translation

from bakeoff import failures, services
from bakeoff.failures import Failure
from bakeoff.models import ReaderSettings, Site, Submission, SubmissionStatus, Track
from tests.factories import NOW, WORKED_RUN
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db


def failed_run(participant: User, pk_closed: Track) -> Submission:
    """A run damaged on disk after its acceptance: the scorer rejects its third character."""
    submission = services.submit_run(participant, pk_closed, WORKED_RUN.encode(), now=NOW)
    Submission.objects.filter(pk=submission.pk).update(file=submission.file.name)
    broken = WORKED_RUN[:2] + "乙" + WORKED_RUN[3:]
    with submission.file.open("wb") as stored:
        stored.write(broken.encode())
    services.do_score_submission(submission.pk, now=NOW)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.FAILED
    return submission


def detail_page(client_for: Any, user: User, submission: Submission, accept: str) -> str:
    bakeoff = submission.track.corpus.bakeoff
    answer = client_for(user).get(
        f"/bakeoffs/{bakeoff.slug}/submissions/{submission.pk}/",
        headers={"accept-language": accept},
    )
    assert answer.status_code == 200
    return str(answer.content.decode())


def test_the_stored_reason_is_english_with_its_code_and_facts(
    participant: User, pk_closed: Track, team: Site
) -> None:
    submission = failed_run(participant, pk_closed)
    assert submission.reason.startswith("The run could not be scored: line 1, column 3")
    assert submission.reason_code == failures.UNSCORABLE
    assert submission.reason_params["error_code"] == "wrong_text"
    assert (submission.reason_params["line"], submission.reason_params["column"]) == (1, 3)
    assert submission.reason_params["found"] == "乙"


@pytest.mark.parametrize(
    ("accept", "words"),
    [
        ("zh-CN", ["无法评分", "第 1 行第 3 列", "实为", "乙", "(U+4E59)"]),
        ("zh-TW", ["無法評分", "第 1 行第 3 列", "實為", "乙", "(U+4E59)"]),
        ("en", ["The run could not be scored: line 1, column 3", "found", "(U+4E59)"]),
    ],
)
def test_the_run_page_says_why_in_the_readers_language(
    client_for: Any,
    participant: User,
    pk_closed: Track,
    team: Site,
    accept: str,
    words: list[str],
) -> None:
    shown = detail_page(client_for, participant, failed_run(participant, pk_closed), accept)
    for word in words:
        assert word in shown
    if accept != "en":
        assert "could not be scored" not in shown


def test_a_reason_stored_before_the_codes_is_shown_as_it_was(
    client_for: Any, participant: User, pk_closed: Track, team: Site
) -> None:
    submission = failed_run(participant, pk_closed)
    Submission.objects.filter(pk=submission.pk).update(
        reason="An old reason, in English.", reason_code="", reason_params={}
    )
    assert "An old reason, in English." in detail_page(client_for, participant, submission, "zh-CN")


def test_a_code_whose_values_do_not_fit_falls_back_to_the_english_text() -> None:
    assert failures.shown(failures.GOLD_NEEDS_REVIEW, {}, "stored") == "stored"
    assert failures.shown("no_such_code", {"lines": 2}, "stored") == "stored"
    with translation.override("zh-hans"):
        assert "2" in str(failures.shown(failures.GOLD_NEEDS_REVIEW, {"lines": 2}, "stored"))


@pytest.mark.parametrize(
    ("lines", "english"),
    [
        (1, "on 1 line; the run will be scored once the organiser accepts it or"),
        (2, "on 2 lines; the run will be scored once the organiser accepts them or"),
    ],
)
def test_a_gold_to_review_reads_in_the_singular_and_in_the_plural(lines: int, english: str) -> None:
    failure = Failure(failures.GOLD_NEEDS_REVIEW, {"lines": lines})
    assert english in failure.english
    with translation.override("zh-hans"):
        assert str(failure.message).startswith(f"标准答案与测试文本有 {lines} 行不一致；")


@pytest.mark.parametrize(
    "failure",
    [
        Failure(failures.NO_GOLD),
        Failure(failures.GOLD_NEEDS_REVIEW, {"lines": 3}),
        Failure(failures.NO_DEVELOPMENT_SET),
        Failure(failures.ATTEMPTS_EXHAUSTED, {"attempts": 3}),
        Failure(failures.INTERNAL_ERROR, {"error": "RuntimeError"}),
    ],
    ids=lambda failure: failure.code,
)
@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_every_reason_has_its_chinese_words(failure: Failure, language: str) -> None:
    with translation.override(language):
        chinese = str(failure.message)
    assert chinese != failure.english
    assert not any("a" <= c <= "z" for c in chinese.replace("RuntimeError", ""))


def test_the_failure_mail_is_in_the_recipients_language(
    participant: User,
    pk_closed: Track,
    team: Site,
    mailoutbox: list[EmailMessage],
    on_commit: OnCommit,
) -> None:
    ReaderSettings.objects.create(user=participant, language="zh-hans")
    participant.email = "pat@example.org"
    participant.save()
    with on_commit():
        failed_run(participant, pk_closed)
    bodies = [str(m.body) for m in mailoutbox if participant.email in m.to]
    assert any("无法评分" in body and "第 1 行第 3 列" in body for body in bodies), bodies


def test_the_api_keeps_the_english_reason(participant: User, pk_closed: Track, team: Site) -> None:
    from rest_framework.test import APIClient

    submission = failed_run(participant, pk_closed)
    client = APIClient()
    client.force_authenticate(participant)
    bakeoff = pk_closed.corpus.bakeoff
    answer = client.get(
        f"/api/bakeoffs/{bakeoff.slug}/tracks/{pk_closed.slug}/submissions/{submission.pk}/",
        headers={"accept-language": "zh-CN"},
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["reason"].startswith("The run could not be scored: line 1, column 3")
