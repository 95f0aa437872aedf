"""A track's bucket scheme (docs/measures/buckets.md#bucket-schemes): chosen by the organiser where
a track is created or edited, used when the track is analysed, shown on the analysis pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from analysis.models import RunAnalysis, TrackAnalysis
from bakeoff import services
from bakeoff.errors import Refused
from bakeoff.models import BucketScheme, Corpus, Site, Submission, Track
from tests.factories import WORKED_RUN, upload
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

EDIT = "/bakeoffs/b2026/corpora/PK/tracks/pk-closed/edit/"
# The characters of the gold (结婚的和尚未结婚的 我们在北京工作 今天天气很好).
GOLD_CHARACTERS = 9 + 7 + 6


@pytest.fixture
def mine(participant: User, site: Site, closed: Track, on_commit: OnCommit) -> Submission:
    return upload(participant, closed, WORKED_RUN, on_commit)


def scheme_of(track: Track) -> str:
    return str(TrackAnalysis.objects.get(track=track).scheme["name"])


def test_a_track_is_cut_by_the_default_scheme_unless_told(closed: Track, mine: Submission) -> None:
    assert closed.bucket_scheme == BucketScheme.DEFAULT
    assert scheme_of(closed) == "rethinkcws-default/1"


def test_choosing_interpreteval_analyses_the_track_again(
    closed: Track, mine: Submission, on_commit: OnCommit
) -> None:
    with on_commit():
        assert services.do_set_bucket_scheme(closed, BucketScheme.INTERPRETEVAL)
    assert scheme_of(closed) == "interpreteval/1"
    run = RunAnalysis.objects.get(score=mine.current_score())
    assert run.buckets["signature"]["scheme"] == "interpreteval/1"
    assert run.scheme_checksum == TrackAnalysis.objects.get(track=closed).scheme_checksum
    c_fre = run.buckets["attributes"]["cFre"]
    assert sum(b["gold_words"] for b in c_fre) == GOLD_CHARACTERS  # characters, not words
    assert sum(b["gold_words"] for b in run.buckets["attributes"]["wLen"]) == 14
    # The same scheme again changes nothing and queues nothing.
    assert not services.do_set_bucket_scheme(closed, BucketScheme.INTERPRETEVAL)


def test_an_unknown_scheme_is_refused(closed: Track) -> None:
    with pytest.raises(Refused, match="Unknown bucket scheme") as refused:
        services.do_set_bucket_scheme(closed, "quartiles")
    schemes = sorted(BucketScheme.values)
    assert refused.value.detail.endswith(f"the schemes are {', '.join(schemes)}.")
    # no English word in the Chinese message: the schemes listed as Chinese lists them
    with translation.override("zh-hans"):
        shown = str(refused.value.message)
    assert shown.endswith(f"可用的方案为 {'、'.join(schemes)}。"), shown


def test_the_organiser_chooses_the_scheme_where_a_track_is_edited(
    client_for: ClientFor, organiser: User, closed: Track, mine: Submission, on_commit: OnCommit
) -> None:
    client = client_for(organiser)
    assert "InterpretEval" in client.get(EDIT).content.decode()
    with on_commit():
        response = client.post(EDIT, {"bucket_scheme": "interpreteval"})
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.bucket_scheme == "interpreteval"
    assert scheme_of(closed) == "interpreteval/1"
    page = client.get(response["Location"]).content.decode()
    assert "buckets: InterpretEval" in page and EDIT in page  # the scheme named, not its code


def test_only_the_organiser_edits_a_track(
    client_for: ClientFor, participant: User, outsider: User, closed: Track
) -> None:
    for user in (participant, outsider):
        response = client_for(user).post(EDIT, {"bucket_scheme": "interpreteval"})
        assert response.status_code == 404
    anonymous = client_for(None).post(EDIT, {"bucket_scheme": "interpreteval"})
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    closed.refresh_from_db()
    assert closed.bucket_scheme == "default"


def test_a_new_track_takes_its_scheme_from_the_form(
    client_for: ClientFor, organiser: User, corpus: Corpus
) -> None:
    corpus.tracks.filter(condition="open").delete()
    response = client_for(organiser).post(
        "/bakeoffs/b2026/corpora/PK/tracks/new/",
        {"condition": "open", "max_runs": 2, "bucket_scheme": "interpreteval"},
    )
    assert response.status_code == 302
    assert corpus.tracks.get(condition="open").bucket_scheme == "interpreteval"


def test_the_analysis_pages_name_the_scheme(
    client_for: ClientFor, participant: User, closed: Track, mine: Submission, on_commit: OnCommit
) -> None:
    with on_commit():
        services.do_set_bucket_scheme(closed, BucketScheme.INTERPRETEVAL)
    page = client_for(participant).get(f"/bakeoffs/b2026/tracks/pk-closed/runs/{mine.pk}/analysis/")
    text = page.content.decode()
    assert "interpreteval/1" in text and "cFre and cCon count characters" in text
    # Under each bar of cFre and cCon: gold / run counts, then "characters" (the run has the
    # gold's 22); "words" under wLen's
    charts = {chart.split(":", 1)[0]: chart for chart in text.split('font-weight="bold">')[1:]}
    assert re.search(r">\d+ / \d+</text><text [^>]*>characters</text>", charts["cFre"])
    assert ">characters</text>" not in charts["wLen"] and ">words</text>" in charts["wLen"]
