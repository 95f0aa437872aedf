"""The audit trail in the organiser's language: each entry keeps its English subject as the record,
and the page says it in 简体中文 or 繁體中文 from the facts stored beside it (a run named as
every page names it, its track); details are named in the reader's language with their values
as stored. Entries from before the facts show their English text; the CSV keeps the record.

The life of the participant's site (its runs, paper, the track's limit and the timetable changed)
is built once for the module. The case of an old entry, which must be the only run entry on the
page: test_audit_languages_alone.py."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from bakeoff import audit, audit_text, services
from bakeoff.models import AuditEntry, Site, Submission, Track
from bakeoff.services import timetable
from tests.factories import (
    PERFECT_RUN,
    WORKED_RUN,
)
from tests.hints import ClientFor, OnCommit
from tests.leaderboard.registered_world import Registered, registered
from tests.module_world import captured_on_commit, module_world, taken_from_world

pytestmark = pytest.mark.django_db

PAGE = "/bakeoffs/b2026/audit/"
CSV = "/bakeoffs/b2026/audit.csv"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
SIMPLIFIED = "zh-CN,zh;q=0.9"
TRADITIONAL = "zh-TW,zh;q=0.9"


def read(client: Client, accept: str, url: str = PAGE) -> str:
    answer = client.get(url, headers={"accept-language": accept})
    assert answer.status_code == 200
    return answer.content.decode()


def subjects(action: str) -> list[str]:
    return list(AuditEntry.objects.filter(action=action).values_list("subject", flat=True))


def lived(
    participant: User, organiser: User, closed: Track, on_commit: OnCommit
) -> tuple[Submission, Submission]:
    """A run accepted and scored, another accepted then withdrawn, a paper attached, the track's run
    limit raised, the timetable changed."""
    with on_commit():
        kept = services.submit_run(participant, closed, PERFECT_RUN.encode())
    with on_commit():
        withdrawn = services.submit_run(participant, closed, WORKED_RUN.encode())
    services.do_withdraw_run(withdrawn, user=participant, reason="wrong model")
    services.do_attach_paper(participant, closed, upload=PDF, title="Our system")
    services.do_set_max_runs(closed, closed.max_runs + 1, by=organiser)
    bakeoff = closed.corpus.bakeoff
    later = bakeoff.submission_deadline + timedelta(days=1)
    timetable.do_change_timetable(bakeoff, {"submission_deadline": later}, by=organiser)
    return kept, withdrawn


@dataclass
class Built(Registered):
    """The world as built once for the module: what the shared fixtures and ``life`` gave."""

    life: tuple[Submission, Submission]


def build_world(on_commit: OnCommit) -> Built:
    """The shared fixtures (tests/conftest.py: BASE and TOP left unscored), then the site's life."""
    world = registered(on_commit, scored=False)
    life = lived(world.participant, world.organiser, world.closed, on_commit)
    return Built(**vars(world), life=life)


# Every test here reads the audit trail of the site's life, and what it adds is rolled back
# (tests/module_world.py).
built, mine = module_world("audit_languages", lambda: build_world(captured_on_commit))
organiser, participant, bakeoff, corpus, closed, site, life = map(
    taken_from_world, ("organiser", "participant", "bakeoff", "corpus", "closed", "site", "life")
)


@pytest.mark.parametrize(
    ("accept", "run_word", "paper_words"),
    [(SIMPLIFIED, "结果", "的系统论文"), (TRADITIONAL, "結果", "的系統論文")],
)
def test_run_and_paper_entries_read_in_chinese(
    client_for: ClientFor,
    organiser: User,
    site: Site,
    closed: Track,
    life: tuple[Submission, Submission],
    accept: str,
    run_word: str,
    paper_words: str,
) -> None:
    kept, withdrawn = life
    page = read(client_for(organiser), accept)
    for run in (kept, withdrawn):
        assert f"{closed.name} 的 {site.code} {run_word} {run.run_number}" in page
        assert f"{run.label} of {closed.name}" not in page
    assert f"{site.code} 在 {closed.name} {paper_words}" in page
    assert f"paper for {closed.name}" not in page
    (paper,) = subjects(audit.PAPER_ATTACHED)
    assert paper == f"{site.code} paper for {closed.name}"  # the record stays in English
    assert f"{run_word} {kept.run_number}" not in "".join(subjects(audit.RUN_ACCEPTED))


@pytest.mark.parametrize(
    ("accept", "words"),
    [
        (SIMPLIFIED, ["日程表已更改：提交截止", "报名"]),
        (TRADITIONAL, ["日程表已更改：提交截止", "報名"]),
    ],
)
def test_timetable_and_registration_entries_read_in_chinese(
    client_for: ClientFor,
    organiser: User,
    site: Site,
    closed: Track,
    life: tuple[Submission, Submission],
    accept: str,
    words: list[str],
) -> None:
    page = read(client_for(organiser), accept)
    for word in words:
        assert word in page
    assert "Timetable changed" not in page
    assert f"{site.name} for {closed.name}" not in page
    assert f"{site.name} {words[1]} {closed.name}" in page


@pytest.mark.parametrize(
    ("accept", "labels"),
    [
        (SIMPLIFIED, ["校验和", "原因", "结果编号", "收到时间", "原值", "新值"]),
        (TRADITIONAL, ["校驗和", "原因", "結果編號", "收到時間", "原值", "新值"]),
    ],
)
def test_details_are_named_in_chinese_with_their_values_as_stored(
    client_for: ClientFor,
    organiser: User,
    life: tuple[Submission, Submission],
    accept: str,
    labels: list[str],
) -> None:
    _, withdrawn = life
    page = read(client_for(organiser), accept)
    for label in labels:
        assert f"{label}：</span>" in page  # a full-width colon in a Chinese page
    for key in ("checksum", "reason", "run_number", "received_at", "old", "new"):
        assert f">{key}:</span>" not in page
        assert f'title="{key}"' in page  # the raw key is still there to hover
    assert withdrawn.checksum in page and "wrong model" in page


def test_english_readers_see_the_stored_subject_of_every_entry(
    client_for: ClientFor, organiser: User, life: tuple[Submission, Submission]
) -> None:
    """The English text recorded and the page's rendering come from the same facts and template."""
    coded = AuditEntry.objects.exclude(subject_code="")
    assert {audit_text.RUN, audit_text.PAPER, audit_text.TIMETABLE_CHANGED} <= {
        entry.subject_code for entry in coded
    }
    with translation.override("en"):
        for entry in coded:
            assert audit_text.text(entry.subject_code, entry.subject_params) == entry.subject
    page = read(client_for(organiser), "en")
    for entry in AuditEntry.objects.all():
        assert entry.subject.replace("'", "&#x27;") in page


def test_facts_that_do_not_fit_their_template_show_the_stored_text() -> None:
    stored = "S01 run 2 of PKc"
    with translation.override("zh-hans"):
        assert audit_text.shown_subject(audit_text.RUN, {"track": "PKc"}, stored) == stored
        assert audit_text.shown_subject("no.such.code", {}, stored) == stored
        facts = {"run": {"site": "S01", "number": "two"}, "track": "PKc"}
        assert audit_text.shown_subject(audit_text.RUN, facts, stored) == stored
        facts = {"run": {"site": "S01", "number": 2, "phase": "test"}, "track": "PKc"}
        assert audit_text.shown_subject(audit_text.RUN, facts, stored) == "PKc 的 S01 结果 2"


def test_the_csv_keeps_the_english_record_and_adds_the_readers_rendering(
    client_for: ClientFor,
    organiser: User,
    site: Site,
    closed: Track,
    life: tuple[Submission, Submission],
) -> None:
    kept, _ = life
    text = read(client_for(organiser), SIMPLIFIED, CSV + f"?action={audit.RUN_ACCEPTED}")
    rows = [row for row in csv.DictReader(io.StringIO(text)) if row["site"] == site.code]
    (row,) = [row for row in rows if json.loads(row["details"])["submission"] == kept.pk]
    assert row["action"] == audit.RUN_ACCEPTED
    assert row["subject"] == f"{kept.label} of {closed.name}"
    assert row["subject_code"] == audit_text.RUN
    assert json.loads(row["subject_params"]) == {
        "run": {"site": site.code, "number": kept.run_number, "phase": kept.phase},
        "track": closed.name,
    }
    assert row["subject_shown"] == f"{closed.name} 的 {site.code} 结果 {kept.run_number}"
    assert "checksum" in json.loads(row["details"])  # details keep their keys


@pytest.mark.parametrize(
    ("count", "english"),
    [(1, "1 run of PKU queued for scoring again"), (2, "2 runs of PKU queued for scoring again")],
)
def test_a_count_of_runs_reads_in_the_singular_and_in_the_plural(count: int, english: str) -> None:
    facts = {"count": count, "corpus": "PKU"}
    with translation.override("en"):
        assert audit_text.text(audit_text.RESCORED, facts) == english
    with translation.override("zh-hant"):
        assert audit_text.text(audit_text.RESCORED, facts) == f"PKU 的 {count} 組結果重新排隊評分"
    assert audit_text.text(audit_text.RESCORED, {"corpus": "PKU"}) is None


def _details_recorded() -> dict[str, set[str]]:
    """Every detail the platform's code passes by name to ``audit.record`` or ``audit.record_run``,
    with the files that pass it."""
    import ast
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    named = {"actor", "track", "site", "now"}  # record's own parameters, not details
    found: dict[str, set[str]] = {}
    for app in ("bakeoff", "leaderboard", "analysis", "psychometric", "notifications", "config"):
        for path in (repo / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                    continue
                owner = node.func.value
                if not (isinstance(owner, ast.Name) and owner.id == "audit"):
                    continue
                if node.func.attr not in ("record", "record_run"):
                    continue
                for keyword in node.keywords:
                    if keyword.arg and keyword.arg not in named:
                        found.setdefault(keyword.arg, set()).add(str(path.relative_to(repo)))
    return found


def test_every_detail_the_code_records_has_a_label() -> None:
    found = _details_recorded()
    assert len(found) > 40  # the walk finds the calls
    unlabelled = {key: paths for key, paths in found.items() if key not in audit_text.DETAIL_LABELS}
    assert unlabelled == {}
    with translation.override("zh-hans"):
        assert str(audit_text.detail_label("reference_runs")) == "参考结果（BASE、TOP）"
