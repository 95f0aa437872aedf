"""The committee task: progress in the database, a versioned result, balanced rows for every run.

The corpus (PK with its training text, BASE and TOP scored) is built once for the module; the
site, runs and committees of each test are its own."""

from __future__ import annotations

from typing import Any, NoReturn

import pytest
from django.contrib.auth.models import User
from django.db.models import QuerySet

from bakeoff import audit
from bakeoff.errors import Refused
from bakeoff.models import AuditEntry, Bakeoff, Corpus, Score, Site, Submission, Track
from leaderboard.models import TrackStanding
from psychometric import services
from psychometric.models import BALANCED, Committee, CommitteeStatus
from scoring.psychometric import committee as library
from tests.factories import PERFECT_RUN, WORKED_RUN, make_corpus, upload
from tests.hints import OnCommit
from tests.module_world import module_world, taken_from_world

from .factories import build, built_as_the_package_tests

pytestmark = pytest.mark.django_db

# Every test here starts from the scored corpus and changes it (its site, runs, committees, another
# corpus) inside its own transaction, which is rolled back (tests/module_world.py).
built, world = module_world("committee", lambda: built_as_the_package_tests(lambda w: w))
# The shared fixtures, of the world built once (theirs would make another bakeoff b2026); the
# shared ``site`` is made on them for each test that asks for it.
organiser, participant, bakeoff, corpus, closed = (
    taken_from_world(name, "world")
    for name in ("organiser", "participant", "bakeoff", "corpus", "closed")
)

GOLD_WORDS = 14


def balanced_rows(corpus: Corpus) -> QuerySet[Score]:
    return Score.objects.filter(submission__track__corpus=corpus, metric=BALANCED)


def test_it_stores_the_progress_members_done_over_k(
    corpus: Corpus, on_commit: OnCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = []
    train = library.train_member

    def spying(*args: Any, **kwargs: Any) -> library.MemberVote:
        # Members train one after another here: before each, the others' votes are counted.
        seen.append(Committee.objects.values_list("members_done", "k", "status").get())
        return train(*args, **kwargs)

    monkeypatch.setattr(library, "train_member", spying)
    committee = build(corpus, on_commit, k=3)
    assert seen == [(0, 3, "running"), (1, 3, "running"), (2, 3, "running")]
    assert committee.status == CommitteeStatus.COMPLETE and committee.members_done == 3


def test_it_stores_a_versioned_result_with_its_provenance(
    corpus: Corpus, on_commit: OnCommit
) -> None:
    committee = build(corpus, on_commit, k=3, seed=7)
    assert (committee.number, committee.gold_version, committee.kind) == (
        1,
        corpus.current_gold(),
        "crf",
    )
    assert committee.data is not None and len(committee.data["difficulty"]) == GOLD_WORDS
    provenance = committee.data["provenance"]
    assert provenance["k"] == 3 and provenance["seed"] == 7 and len(provenance["members"]) == 3
    assert committee.signature == provenance["signature"] and "seed:7" in committee.signature
    assert all(0 < word["difficulty"] <= 1 for word in committee.hardest)


def test_scored_runs_gain_f_b_without_being_uploaded_again(
    corpus: Corpus, closed: Track, site: Site, participant: User, on_commit: OnCommit
) -> None:
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    assert not balanced_rows(corpus).exists()
    before = Submission.objects.count()
    committee = build(corpus, on_commit)
    assert Submission.objects.count() == before
    row = balanced_rows(corpus).get(submission=mine)
    assert row.result["committee_id"] == committee.pk and row.signature == committee.signature
    assert row.f == pytest.approx(row.result["f_b"])
    assert row.result["balanced_recall_sums"]["words"] == GOLD_WORDS
    # BASE and TOP of both tracks, and the run: every current word score.
    assert balanced_rows(corpus).count() == Score.objects.filter(metric="word").count() == 5
    standing = TrackStanding.objects.get(submission=mine)
    assert standing.f_b == pytest.approx(row.f)


def test_runs_scored_after_the_committee_gain_f_b_too(
    corpus: Corpus, closed: Track, site: Site, participant: User, on_commit: OnCommit
) -> None:
    build(corpus, on_commit)
    mine = upload(participant, closed, PERFECT_RUN, on_commit)
    row = balanced_rows(corpus).get(submission=mine)
    assert row.f == pytest.approx(1.0)
    assert TrackStanding.objects.get(submission=mine).f_b == pytest.approx(1.0)


def test_a_committee_with_another_seed_is_a_new_version(
    corpus: Corpus, closed: Track, on_commit: OnCommit
) -> None:
    first = build(corpus, on_commit, seed=1)
    second = build(corpus, on_commit, seed=2)
    assert (first.number, second.number) == (1, 2)
    first.refresh_from_db()
    assert first.status == CommitteeStatus.COMPLETE and first.data is not None  # kept, not mixed
    gold = corpus.current_gold()
    assert gold is not None and services.current_committee(gold) == second
    rows = balanced_rows(corpus)
    assert {r.result["committee_number"] for r in rows} == {2}
    assert {r.signature for r in rows} == {second.signature}


def test_applying_an_older_committee_again_changes_nothing(
    corpus: Corpus, on_commit: OnCommit
) -> None:
    first = build(corpus, on_commit, seed=1)
    build(corpus, on_commit, seed=2)
    assert services.do_apply_committee(first.pk) == 0
    assert {r.result["committee_number"] for r in balanced_rows(corpus)} == {2}


def test_building_twice_is_idempotent(corpus: Corpus, on_commit: OnCommit) -> None:
    committee = build(corpus, on_commit)
    assert services.do_build_committee(committee.pk) is None
    committee.refresh_from_db()
    assert committee.status == CommitteeStatus.COMPLETE


def test_one_build_at_a_time_per_corpus(corpus: Corpus) -> None:
    services.do_start_committee(corpus, kind="crf", k=2)  # queued: its task never runs here
    with pytest.raises(Refused, match="being built"):
        services.do_start_committee(corpus, kind="crf", k=2, seed=2)


def test_a_corpus_without_training_text_uses_its_runs(
    bakeoff: Bakeoff, participant: User, on_commit: OnCommit
) -> None:
    with on_commit():
        corpus = make_corpus(bakeoff, abbreviation="MS")
    with pytest.raises(Refused, match="no segmented training text"):
        services.do_start_committee(corpus, kind="crf", k=3)
    committee = build(corpus, on_commit, kind="runs")
    # BASE of each track; TOP is left out (it segments with the gold's own words).
    assert committee.status == CommitteeStatus.COMPLETE and committee.k == 2
    assert committee.data is not None and committee.data["provenance"]["kind"] == "runs"
    assert balanced_rows(corpus).count() == 4


def test_a_failed_build_says_why(
    corpus: Corpus, on_commit: OnCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> NoReturn:
        raise RuntimeError("boom")

    monkeypatch.setattr(library, "train_member", broken)
    committee = build(corpus, on_commit)
    assert committee.status == CommitteeStatus.FAILED
    assert "Internal error" in committee.reason
    assert not balanced_rows(corpus).exists()


def test_a_complete_committee_is_mailed_to_the_organisers(
    corpus: Corpus, on_commit: OnCommit, mailoutbox: list[Any], organiser: User
) -> None:
    organiser.email = "olga@example.org"
    organiser.save(update_fields=["email"])
    build(corpus, on_commit, k=2)
    mails = [m for m in mailoutbox if "Committee complete" in m.subject]
    assert [m.to for m in mails] == [[organiser.email]]
    assert "The committee PK gold v1, committee 1 is complete: 2 members" in mails[0].body
    assert not [m for m in mailoutbox if "Committee failed" in m.subject]


def test_a_committee_requested_and_finished_is_in_the_audit_trail(
    corpus: Corpus, on_commit: OnCommit, monkeypatch: pytest.MonkeyPatch
) -> None:
    committee = build(corpus, on_commit, k=2, seed=3)
    requested, finished = AuditEntry.objects.filter(action__startswith="committee.").order_by("pk")
    assert requested.action == audit.COMMITTEE_REQUESTED
    assert requested.details["committee"] == committee.pk
    assert (requested.details["k"], requested.details["seed"]) == (2, 3)
    assert finished.action == audit.COMMITTEE_FINISHED
    assert (finished.details["status"], finished.details["reason"]) == ("complete", "")

    def broken(*args: object, **kwargs: object) -> NoReturn:
        raise RuntimeError("boom")

    monkeypatch.setattr(library, "train_member", broken)
    failed = build(corpus, on_commit, k=2, seed=4)
    last = AuditEntry.objects.filter(action=audit.COMMITTEE_FINISHED).latest("pk")
    assert last.details["committee"] == failed.pk
    assert last.details["status"] == "failed" and "Internal error" in last.details["reason"]
