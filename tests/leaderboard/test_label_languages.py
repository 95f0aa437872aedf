"""A run's name on the pages is in the reader's language ("S01 结果 1"); the audit trail, the API
and results.json keep the English one ("S01 run 1").

The participant's run, scored, is built once for the module."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import translation

from bakeoff.models import Bakeoff, Submission, SubmissionPhase, Track, run_label
from tests.factories import PERFECT_RUN, SPLIT_RUN, WORKED_RUN, publish, rival, upload
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, Registered, registered

pytestmark = pytest.mark.django_db

TRACK = "/bakeoffs/b2026/tracks/pk-closed/"


@dataclass
class Built(Registered):
    """The world as built once for the module, and what the shared fixtures would have given."""

    mine: Submission


def build_world(on_commit: OnCommit) -> Built:
    """The participant's run on the closed track, scored, the results not published."""
    world = registered(on_commit)
    mine = upload(world.participant, world.closed, WORKED_RUN, on_commit)
    # No page read before a test may be served to it from the cache as if it were fresh.
    cache.clear()
    return Built(**vars(world), mine=mine)


# Every test here reads the participant's run, and what it adds (rivals' runs, a publication) is
# rolled back (tests/module_world.py). The world's own fixture is ``world``: ``mine`` is the run.
built, world = module_world("label_languages", lambda: build_world(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser, mine = (
    taken_from_world(name, "world") for name in (*SHARED, "mine")
)


def page(client_for: ClientFor, user: User | None, path: str, accept: str) -> str:
    answer = client_for(user).get(path, headers={"accept-language": accept})
    assert answer.status_code == 200, path
    return str(answer.content.decode())


@pytest.mark.parametrize(
    ("accept", "label"), [("zh-CN", "S01 结果 1"), ("zh-TW", "S01 結果 1"), ("en", "S01 run 1")]
)
def test_the_participants_pages_name_the_run_in_their_language(
    client_for: ClientFor, participant: User, mine: Submission, accept: str, label: str
) -> None:
    listed = page(client_for, participant, "/bakeoffs/b2026/submissions/", accept)
    detail = page(client_for, participant, f"/bakeoffs/b2026/submissions/{mine.pk}/", accept)
    for shown in (listed, detail):
        assert label in shown
        if accept != "en":
            assert "S01 run 1" not in shown


def test_the_run_page_names_it_and_its_neighbours_in_chinese(
    client_for: ClientFor,
    organiser: User,
    mine: Submission,
    bakeoff: Bakeoff,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    user, _ = rival(bakeoff, closed)
    upload(user, closed, PERFECT_RUN, on_commit)
    upload(user, closed, SPLIT_RUN, on_commit)
    shown = page(client_for, organiser, f"{TRACK}runs/{mine.pk}/", "zh-CN")  # rank 2 of 3
    assert "S01 结果 1" in shown and "S02 结果 1" in shown
    assert "第 1 名，排在前面" in shown and "第 3 名，排在后面" in shown
    assert " run 1" not in shown and "(rank " not in shown


def test_english_stays_where_it_is_kept(mine: Submission) -> None:
    with translation.override("zh-hans"):
        assert mine.label == "S01 run 1"  # the audit trail and the API
        assert mine.shown_label == "S01 结果 1"
        assert run_label("S01", 2, SubmissionPhase.POST_BAKEOFF) == "S01 结果 2（赛后）"
        assert run_label("S01", 2, SubmissionPhase.DEVELOPMENT) == "S01 结果 2（开发）"


def test_results_json_names_the_runs_in_english_for_a_chinese_reader(
    client_for: ClientFor,
    mine: Submission,
    bakeoff: Bakeoff,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    user, _ = rival(bakeoff, closed)
    upload(user, closed, WORKED_RUN.replace("结婚", "结 婚", 1), on_commit)
    publish(bakeoff)
    body = page(client_for, None, f"{TRACK}results.json", "zh-CN")
    assert "结果" not in body
    assert "S01 run 1" in json.dumps(json.loads(body), ensure_ascii=False)


def test_an_erratum_says_what_moved_in_the_readers_language() -> None:
    from leaderboard.versions import described

    changes = [
        {
            "track": "pk-closed",
            "name": "PKc",
            "gold": [1, 2],
            "runs": [
                {"label": "S01 run 1", "kind": "run", "status": "changed", "rank": [1, 2]},
                {"label": "S02 run 1", "kind": "run", "status": "added"},
            ],
        }
    ]
    with translation.override("zh-hans"):
        said = described(changes, lambda run: run["label"])[0]
        lines = [str(line) for run in said["runs"] for line in run["lines"]]
        assert str(said["gold"]) == "标准答案版本 1 → 2"
        assert lines == ["名次 1 → 2", "新进入成绩表"]


def test_an_erratum_names_the_figures_in_words_and_a_tiny_move_has_no_sign() -> None:
    from leaderboard.versions import described

    figures = {
        "oov_recall": [0.5, 0.6, 0.1],
        "iv_recall": [0.9, 0.9, -0.00001],  # moved, by less than the places shown
        "f_b": [0.8, 0.7, -0.1],
        "true_words": [14, 13, -1],
    }
    changes = [
        {
            "track": "pk-closed",
            "name": "PKc",
            "gold": [1, 2],
            "runs": [{"label": "S01", "kind": "run", "status": "changed", "figures": figures}],
        }
    ]
    with translation.override("en"):
        lines = [
            str(line)
            for line in described(changes, lambda run: run["label"])[0]["runs"][0]["lines"]
        ]
    assert lines == [
        "OOV recall 0.500 → 0.600 (+0.1000)",
        "IV recall 0.900 → 0.900 (0.0000)",
        "balanced F 0.800 → 0.700 (-0.1000)",
        "gold words 14 → 13 (-1)",
    ]
    with translation.override("zh-hans"):
        said = " ".join(
            str(line)
            for line in described(changes, lambda run: run["label"])[0]["runs"][0]["lines"]
        )
    for symbol in ("R_oov", "R_iv", "F_b", "N ", "-0.0000"):
        assert symbol not in said
