"""Gold is versioned: a new version keeps the old, re-scores every run, supersedes old scores."""

from __future__ import annotations

import pytest

from bakeoff import services
from bakeoff.errors import InvalidFile
from bakeoff.models import Score, SubmissionStatus

from .factories import GOLD, NOW, PERFECT_RUN, TEST, make_corpus, make_site, track

pytestmark = pytest.mark.django_db

# The corrected gold joins 北京工作 into one word.
CORRECTED = GOLD.replace("北京 工作", "北京工作")


@pytest.fixture
def corpus(pinned_bakeoff):
    return make_corpus(pinned_bakeoff, now=NOW)


@pytest.fixture
def scored(corpus, pinned_bakeoff, participant, on_commit):
    t = track(corpus)
    make_site(pinned_bakeoff, participant, [t])
    with on_commit():
        submission = services.submit_run(participant, t, PERFECT_RUN.encode(), now=NOW)
    return submission


def test_a_new_gold_keeps_the_old_version(corpus):
    services.do_add_gold_version(corpus, CORRECTED.encode(), note="joined 北京工作", now=NOW)
    assert list(corpus.gold_versions.values_list("number", flat=True)) == [2, 1]
    assert corpus.current_gold().number == 2


def test_a_new_gold_rescores_every_run_and_supersedes_old_scores(corpus, scored, on_commit):
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED.encode(), now=NOW)
    scored.refresh_from_db()
    assert scored.status == SubmissionStatus.SCORED
    old, new = Score.objects.filter(submission=scored).order_by("gold_version__number")
    assert old.superseded_at is not None and new.superseded_at is None
    assert old.f == 1.0 and new.f < 1.0
    assert scored.current_score() == new


def test_a_new_gold_makes_a_new_topline(corpus, on_commit):
    with on_commit():
        services.do_add_gold_version(corpus, CORRECTED.encode(), now=NOW)
    topline = track(corpus).submissions.get(kind="topline")
    assert "北京工作" in topline.file.read().decode()
    assert topline.current_score().f == 1.0


def test_it_refuses_a_gold_with_a_line_missing(corpus):
    with pytest.raises(InvalidFile):
        services.do_add_gold_version(corpus, "结婚 的\n".encode(), now=NOW)
    assert corpus.gold_versions.count() == 1


def test_it_lists_lines_where_gold_and_test_differ(pinned_bakeoff):
    flawed = GOLD.replace("很 好", "很 好 。")
    corpus = make_corpus(pinned_bakeoff, abbreviation="AS", gold=flawed, test=TEST, now=NOW)
    gold = corpus.current_gold()
    assert gold.differences == [{"line": 3, "column": 7, "gold": "。", "test": ""}]
    assert gold.needs_review


def test_runs_wait_until_the_organiser_accepts_differences(pinned_bakeoff, participant, on_commit):
    flawed = GOLD.replace("很 好", "很 好 。")
    corpus = make_corpus(pinned_bakeoff, abbreviation="AS", gold=flawed, test=TEST, now=NOW)
    t = track(corpus)
    make_site(pinned_bakeoff, participant, [t])
    with on_commit():
        submission = services.submit_run(participant, t, PERFECT_RUN.encode(), now=NOW)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.FAILED
    assert "organiser" in submission.reason
    with on_commit():
        services.do_accept_differences(corpus.current_gold(), now=NOW)
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.SCORED
    assert submission.current_score().result["aligned_lines"] == [3]
