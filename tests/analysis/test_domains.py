"""Bucket analyses restricted to a domain: stored per run when the corpus labels its test lines,
equal to the library's analysis on that domain's lines, computed again when the labels change,
and shown on the run's analysis page with ``?domain=``."""

from __future__ import annotations

import numpy as np
import pytest
from django.conf import settings
from django.contrib.auth.models import User

from analysis import prepared
from analysis.models import RunAnalysis, TrackAnalysis
from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Site, Submission, Track
from scoring import DEFAULT_SEED, Resampling, analyse_runs, score_run_details
from tests.analysis.conftest import TRAINING
from tests.factories import PERFECT_RUN, WORKED_RUN, make_corpus, publish, rival, upload
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"
LABELS = "news\nweibo\nnews\n"


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff, training=TRAINING, domains=LABELS)


@pytest.fixture
def mine(participant: User, site: Site, closed: Track, on_commit: OnCommit) -> Submission:
    return upload(participant, closed, WORKED_RUN, on_commit)


def test_each_run_has_its_buckets_per_domain_as_the_library_gives_them(
    mine: Submission, closed: Track, corpus: Corpus
) -> None:
    stored = RunAnalysis.objects.get(score__submission=mine)
    assert stored.domains["labels"] == corpus.domain_labels_checksum
    assert set(stored.domains["buckets"]) == {"news", "weibo"}
    gold = corpus.current_gold()
    assert gold is not None
    details = score_run_details(WORKED_RUN, services.gold_index_for(gold))
    news_lines = np.array([True, False, True])
    (expected,) = analyse_runs(
        prepared.prepared_track(gold),
        [details],
        lines=news_lines,
        resampling=Resampling.draw(
            2, samples=settings.ANALYSIS_BOOTSTRAP_SAMPLES, seed=DEFAULT_SEED
        ),
    )
    assert stored.domains["buckets"]["news"] == expected.to_dict()
    news = stored.domains["buckets"]["news"]
    # wLen {1} on lines 1 and 3: 的 和 的 很 好 in gold; 和 is lost in 和尚
    (one,) = (b for b in news["attributes"]["wLen"] if b["label"] == "wLen {1}")
    assert (one["gold_words"], one["correct_gold"]) == (5, 4)
    assert TrackAnalysis.objects.get(track=closed).domain_labels == corpus.domain_labels_checksum


def test_new_labels_analyse_the_track_again(
    bakeoff: Bakeoff, participant: User, on_commit: OnCommit
) -> None:
    with on_commit():
        corpus = make_corpus(bakeoff, training=TRAINING)
    closed = corpus.tracks.get(condition="closed")
    from tests.factories import make_site

    make_site(bakeoff, participant, [closed])
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    assert RunAnalysis.objects.get(score__submission=mine).domains == {}
    with on_commit():
        services.do_set_domain_labels(corpus, b"a\nb\nb\n")
    stored = RunAnalysis.objects.get(score__submission=mine)
    assert set(stored.domains["buckets"]) == {"a", "b"}
    assert TrackAnalysis.objects.get(track=closed).domain_labels == corpus.domain_labels_checksum


def test_the_analysis_page_shows_one_domain(
    client_for: ClientFor, participant: User, mine: Submission, bakeoff: Bakeoff, closed: Track,
    on_commit: OnCommit,
) -> None:  # fmt: skip
    client = client_for(participant)
    whole = client.get(f"{TRACK}runs/{mine.pk}/analysis/").content.decode()
    assert '<a href="?domain=news">news</a>' in whole
    page = client.get(f"{TRACK}runs/{mine.pk}/analysis/?domain=weibo").content.decode()
    assert "Restricted to the lines of the domain <strong>weibo</strong>" in page
    assert page.count("<svg") == 7
    # weibo is line 2, 我们 在 北京 工作, all found: every bucket with words has F 1
    assert "F = 0.909" not in page and "F = 1.000" in page
    assert client.get(f"{TRACK}runs/{mine.pk}/analysis/?domain=sports").status_code == 404
    user, _ = rival(bakeoff, closed)
    theirs = upload(user, closed, PERFECT_RUN, on_commit)
    publish(bakeoff)
    compared = client.get(
        f"{TRACK}runs/{mine.pk}/analysis/?domain=news&with={theirs.pk}"
    ).content.decode()
    assert "Aided diagnosis" in compared
    assert "of the whole test set: see it with all lines" in compared
