"""The analysis tab and the track's profile in Chinese: attributes described, and why one is
unavailable, in the reader's language; long bucket boundaries shortened under the bars, and
bucket sizes that fit their columns, and superscripts drawn as such."""

from __future__ import annotations

import itertools
import re

import pytest
from django.contrib.auth.models import User

from analysis.plots import Bar, axis_label, bucket_bars, profile_bars, raised, text_width
from bakeoff.models import Bakeoff, Site, Track
from tests.factories import WORKED_RUN, make_corpus, upload
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db


def test_the_analysis_tab_speaks_chinese(
    client_for: ClientFor, participant: User, site: Site, closed: Track, on_commit: OnCommit
) -> None:
    mine = upload(participant, closed, WORKED_RUN, on_commit)
    answer = client_for(participant).get(
        f"/bakeoffs/b2026/tracks/pk-closed/runs/{mine.pk}/analysis/",
        headers={"accept-language": "zh-CN"},
    )
    page = answer.content.decode()
    assert "wLen: 词长（字数）" in page and "wLen：按词长（字数）分桶的 F 值" in page
    assert ">词</text>" in page  # under the sizes of each bucket
    assert "word length" not in page and ">words</text>" not in page


def test_an_unavailable_attribute_says_why_in_chinese(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, on_commit: OnCommit
) -> None:
    with on_commit():
        make_corpus(bakeoff, abbreviation="WL")
    closed = bakeoff.corpora.get(abbreviation="WL").tracks.get(condition="closed")
    track = "/bakeoffs/b2026/tracks/wl-closed/"
    pk = closed.submissions.get(kind="baseline").pk
    client = client_for(organiser)
    zh = {"accept-language": "zh-TW"}
    page = client.get(f"{track}runs/{pk}/analysis/", headers=zh).content.decode()
    assert page.count("需要連續文本形式的訓練語料；只提供了詞表") == 4
    profile = client.get(track, headers=zh).content.decode()
    assert profile.count("需要連續文本形式的訓練語料；只提供了詞表") == 4
    assert profile.count("不可用（沒有訓練文本）") == 4 and "各屬性的 α^ρ" in profile
    assert "needs the training corpus" not in page + profile


def test_long_bucket_boundaries_are_shortened_under_the_bars_not_in_their_titles() -> None:
    assert axis_label("(0.919643, 0.933962]") == "(0.9196, 0.934]"
    assert axis_label("[4, inf)") == "[4, inf)"
    svg = bucket_bars([Bar(label="(0.919643, 0.933962]", value=0.5)], title="t")
    assert ">(0.9196, 0.934]</text>" in svg
    assert "<title>(0.919643, 0.933962]: F = 0.500" in svg


@pytest.mark.parametrize("items", ["words", "词"])
def test_the_sizes_under_neighbouring_bars_do_not_run_into_each_other(items: str) -> None:
    notes = [
        f"{gold} / {run} {items}" for gold, run in [(52813, 47949), (46121, 46813), (5660, 7507)]
    ]
    svg = bucket_bars(
        [Bar(label=f"{{{i}}}", value=0.9, note=note) for i, note in enumerate(notes, 1)],
        title="t",
    )
    centres = [
        float(x)
        for x, note in re.findall(
            r'<text x="([\d.]+)" y="\d+" text-anchor="middle"[^>]*>([^<]*)<', svg
        )
        if note in notes
    ]
    assert len(centres) == len(notes)
    for (a, b), (left, right) in zip(
        itertools.pairwise(centres), itertools.pairwise(notes), strict=True
    ):
        assert b - a >= (text_width(left) + text_width(right)) / 2
    width = float(re.search(r'width="(\d+)"', svg)[1])  # type: ignore[index]
    assert centres[-1] + text_width(notes[-1]) / 2 <= width


def test_a_note_of_two_lines_is_drawn_one_line_under_the_other() -> None:
    svg = bucket_bars([Bar(label="{1}", value=0.9, note="52813 / 47949\nwords")], title="t")
    first = re.search(r'y="(\d+)"[^>]*>52813 / 47949</text>', svg)
    second = re.search(r'y="(\d+)"[^>]*>words</text>', svg)
    assert first and second and int(second[1]) > int(first[1])
    assert int(second[1]) < float(re.search(r'height="(\d+)"', svg)[1])  # type: ignore[index]


def test_the_profile_draws_its_carets_as_superscripts() -> None:
    svg = profile_bars(
        [Bar(label="wLen (α^μ 1.64)", value=0.884)],
        title="α^ρ per attribute: mean |S^ρ| over the systems",
    )
    # what is drawn; the tooltips (<title>) and the aria-label are plain text and keep "^"
    drawn = "".join(re.findall(r"<text [^>]*>(.*?)</text>", svg))
    assert "^" not in drawn
    assert 'α<tspan baseline-shift="super" font-size="8">ρ</tspan> per attribute' in drawn
    assert 'wLen (α<tspan baseline-shift="super" font-size="8">μ</tspan> 1.64)' in drawn
    assert raised("<b>^x") == '&lt;b&gt;<tspan baseline-shift="super" font-size="8">x</tspan>'
