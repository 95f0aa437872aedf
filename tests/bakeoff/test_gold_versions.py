"""Gold is versioned: a new version keeps the old, re-scores every run, supersedes old scores."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff import services
from bakeoff.errors import InvalidFile
from bakeoff.models import Bakeoff, Corpus, Score, Submission, SubmissionStatus
from tests.factories import GOLD, NOW, PERFECT_RUN, TEST, make_corpus, make_site, track
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

# The corrected gold joins 北京工作 into one word.
CORRECTED = GOLD.replace("北京 工作", "北京工作")


@pytest.fixture
def corpus(pinned_bakeoff: Bakeoff) -> Corpus:
    return make_corpus(pinned_bakeoff, now=NOW)


@pytest.fixture
def scored(
    corpus: Corpus, pinned_bakeoff: Bakeoff, participant: User, on_commit: OnCommit
) -> Submission:
    t = track(corpus)
    make_site(pinned_bakeoff, participant, [t])
    with on_commit():
        submission = services.submit_run(participant, t, PERFECT_RUN.encode(), now=NOW)
    return submission


def test_a_new_gold_keeps_the_old_version(corpus: Corpus) -> None:
    services.do_add_gold_version(corpus, CORRECTED.encode(), note="joined 北京工作", now=NOW)
    assert list(corpus.gold_versions.values_list("number", flat=True)) == [2, 1]
    current = corpus.current_gold()
    assert current is not None and current.number == 2


def test_a_new_gold_rescores_every_run_and_supersedes_old_scores(
    corpus: Corpus, scored: Submission, on_commit: OnCommit
) -> None:
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED.encode(), now=NOW)
    scored.refresh_from_db()
    assert scored.status == SubmissionStatus.SCORED
    old, new = Score.objects.filter(submission=scored).order_by("gold_version__number")
    assert old.superseded_at is not None and new.superseded_at is None
    assert old.f == 1.0 and new.f is not None and new.f < 1.0
    assert scored.current_score() == new


def test_a_new_gold_makes_a_new_topline(corpus: Corpus, on_commit: OnCommit) -> None:
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED.encode(), now=NOW)
    topline = track(corpus).submissions.get(kind="topline")
    assert "北京工作" in topline.file.read().decode()
    score = topline.current_score()
    assert score is not None and score.f == 1.0


def test_it_refuses_a_gold_with_a_line_missing(corpus: Corpus) -> None:
    with pytest.raises(InvalidFile):
        services.do_add_gold_version(corpus, "结婚 的\n".encode(), now=NOW)
    assert corpus.gold_versions.count() == 1


def test_it_lists_lines_where_gold_and_test_differ(pinned_bakeoff: Bakeoff) -> None:
    flawed = GOLD.replace("很 好", "很 好 。")
    corpus = make_corpus(pinned_bakeoff, abbreviation="AS", gold=flawed, test=TEST, now=NOW)
    gold = corpus.current_gold()
    assert gold is not None
    assert gold.differences == [{"line": 3, "column": 7, "gold": "。", "test": ""}]
    assert gold.needs_review


def test_runs_wait_until_the_organiser_accepts_differences(
    pinned_bakeoff: Bakeoff, participant: User, on_commit: OnCommit
) -> None:
    flawed = GOLD.replace("很 好", "很 好 。")
    corpus = make_corpus(pinned_bakeoff, abbreviation="AS", gold=flawed, test=TEST, now=NOW)
    t = track(corpus)
    make_site(pinned_bakeoff, participant, [t])
    with on_commit():
        submission = services.submit_run(participant, t, PERFECT_RUN.encode(), now=NOW)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.FAILED
    assert "organiser" in submission.reason
    gold = corpus.current_gold()
    assert gold is not None
    with on_commit():
        services.do_accept_differences(gold, now=NOW)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED
    score = submission.current_score()
    assert score is not None and score.result["aligned_lines"] == [3]
