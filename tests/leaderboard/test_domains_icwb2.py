"""The platform on a real multi-domain set: the four SIGHAN 2005 test sets one after the other,
each line labelled with its corpus (tests/multidomain.py), as one corpus of a bakeoff.

Two runs are uploaded and scored as any run is; every stored score's domains add up to its
totals exactly, each domain's figures are those of the library scoring that domain's lines alone,
and the table by domain and the exports show them.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Score, Track
from scoring import Dictionary, build_gold_index, score_run
from scoring.core.score import ANY_LINE
from tests import multidomain
from tests.factories import make_site, publish, rival, upload
from tests.hints import OnCommit

_MISSING = multidomain.missing()
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(_MISSING is not None, reason=f"no multi-domain set: {_MISSING}"),
]

TRACK = "/bakeoffs/b2026/tracks/sighan-closed/"
COUNTS = ("true_words", "test_words", "correct", "oov_words", "correct_oov")
LINES = {"as": 14432, "cityu": 1493, "msr": 3985, "pku": 1945}


@pytest.fixture(scope="module")
def data() -> multidomain.MultiDomainSet:
    return multidomain.icwb2_domains()


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit, data: multidomain.MultiDomainSet) -> Corpus:
    with on_commit():
        return services.do_create_corpus(
            bakeoff,
            services.CorpusFiles(
                gold=data.gold.encode(),
                test_text=data.test.encode(),
                training_words=data.words.encode(),
                domain_labels=data.labels.encode(),
            ),
            name="SIGHAN 2005, four test sets",
            abbreviation="SIGHAN",
            institution="AS, CityU, MSR, PKU",
            conditions=("closed",),
            accept_differences=True,  # msr's 16 lines and as's one, as released
        )


@pytest.fixture
def scored(
    corpus: Corpus,
    bakeoff: Bakeoff,
    participant: User,
    on_commit: OnCommit,
    data: multidomain.MultiDomainSet,
) -> Track:
    closed = corpus.tracks.get()
    make_site(bakeoff, participant, [closed])
    upload(participant, closed, data.perturbed, on_commit)
    user, _ = rival(bakeoff, closed)
    upload(user, closed, data.backward, on_commit)
    return closed


@pytest.mark.slow
def test_the_platform_scores_the_four_test_sets_per_domain(
    scored: Track,
    corpus: Corpus,
    bakeoff: Bakeoff,
    anonymous: Client,
    data: multidomain.MultiDomainSet,
) -> None:
    """One test, as the corpus takes about 30 s to set up (its BASE, TOP, two runs and the
    track's analysis, per domain too)."""
    _domains_add_up(scored, corpus)
    _each_domain_alone(scored, data)
    _table_and_exports(scored, bakeoff, anonymous)
    for name in ("Team A", "Rivals", "BASE", "TOP"):
        kind = {"BASE": "baseline", "TOP": "topline"}.get(name)
        submission = (
            scored.submissions.get(kind=kind) if kind else scored.submissions.get(site__name=name)
        )
        score = submission.current_score()
        assert score is not None
        shown = ", ".join(f"{d['domain']} {d['f']:.3f}" for d in score.result["domains"])
        print(f"{name}: F {score.f:.3f}, N {score.true_words}, c {score.correct} ({shown})")


def _domains_add_up(scored: Track, corpus: Corpus) -> None:
    assert corpus.domains == [{"domain": d, "lines": n} for d, n in LINES.items()]
    scores = list(Score.objects.filter(submission__track=scored, superseded_at__isnull=True))
    assert len(scores) == 4  # two runs, BASE and TOP
    for score in scores:
        domains = score.result["domains"]
        assert [d["domain"] for d in domains] == list(LINES)
        assert [d["lines"] for d in domains] == list(LINES.values())
        for key in COUNTS:
            assert sum(d[key] for d in domains) == getattr(score, key), (score.pk, key)


def _each_domain_alone(scored: Track, data: multidomain.MultiDomainSet) -> None:
    dictionary = Dictionary.from_word_list(data.words)
    for name, text in (("Team A", data.perturbed), ("Rivals", data.backward)):
        score = scored.submissions.get(site__name=name).current_score()
        assert score is not None
        for stored in score.result["domains"]:
            domain = stored["domain"]
            gold = build_gold_index(data.lines_of(data.gold, domain), dictionary)
            alone = score_run(data.lines_of(text, domain), gold, aligned_lines=ANY_LINE)
            assert {key: stored[key] for key in COUNTS} == {
                key: getattr(alone, key) for key in COUNTS
            }, (name, domain)
            assert stored["f"] == alone.f and stored["oov_recall"] == alone.oov_recall


def _table_and_exports(scored: Track, bakeoff: Bakeoff, anonymous: Client) -> None:
    publish(bakeoff)
    html = anonymous.get(TRACK + "domains/").content.decode()
    for domain in LINES:
        assert f"{domain} F" in html
    score = scored.submissions.get(site__name="Team A").current_score()
    assert score is not None
    for stored in score.result["domains"]:
        assert f"{stored['f']:.3f}" in html
    data = json.loads(anonymous.get(TRACK + "results.json").content)
    assert [d["lines"] for d in data["domains"]] == list(LINES.values())
    rows = list(csv.DictReader(io.StringIO(anonymous.get(TRACK + "results.csv").content.decode())))
    team_a = next(row for row in rows if row["name"] == "Team A")
    by_domain = {d["domain"]: d for d in score.result["domains"]}
    assert team_a["F[msr]"] == f"{by_domain['msr']['f']:.3f}"
    assert team_a["cr[as]"] == f"{by_domain['as']['cr']:.4f}"
