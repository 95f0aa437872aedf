"""The released gold with a few lines changed is not refused (it is not the gold), but the
post-bakeoff table says that nearly every line of it is segmented exactly as the published gold,
with the share; a system's output, however good, is not marked (issue 24, item 6)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff import services
from bakeoff.models import Bakeoff, Corpus, Site, SubmissionPhase, SubmissionStatus, Track
from leaderboard.models import NEAR_GOLD, PostBakeoffStanding
from tests.factories import make_corpus, publish, rival, upload
from tests.hints import OnCommit

pytestmark = pytest.mark.django_db

# 200 lines: the gold, a copy with one line changed (199 of 200 as the gold, 99.5 %), and a
# system that joins one word on every third line (2/3 of its lines as the gold).
FOUR = ["我们 在 北京 工作", "今天 天气 很 好", "结婚 的 和 尚未 结婚 的", "他 说 的 确实 在理"]
LINES = FOUR * 50
GOLD = "".join(f"{line}\n" for line in LINES)
TEST = GOLD.replace(" ", "")
ONE_LINE_CHANGED = GOLD.replace("今天 天气 很 好\n", "今天 天气 很好\n", 1)
SYSTEM = "".join(
    f"{line.replace(' ', '', 1) if n % 3 == 0 else line}\n" for n, line in enumerate(LINES)
)


@pytest.fixture
def corpus(bakeoff: Bakeoff, on_commit: OnCommit) -> Corpus:
    with on_commit():
        return make_corpus(bakeoff, gold=GOLD, test=TEST)


@pytest.fixture
def opened(
    bakeoff: Bakeoff, participant: User, closed: Track, site: Site, on_commit: OnCommit
) -> Track:
    upload(participant, closed, SYSTEM, on_commit)
    publish(bakeoff)
    closed.post_bakeoff_open = True
    closed.save()
    return closed


def post(user: User, track: Track, text: str, on_commit: OnCommit) -> PostBakeoffStanding:
    with on_commit():
        run = services.submit_run(user, track, text.encode(), phase=SubmissionPhase.POST_BAKEOFF)
    run.refresh_from_db()
    assert run.status == SubmissionStatus.SCORED, run.reason
    return PostBakeoffStanding.objects.get(submission=run)


def test_a_near_copy_of_the_gold_is_marked_and_a_system_is_not(
    bakeoff: Bakeoff, opened: Track, on_commit: OnCommit
) -> None:
    copier, _ = rival(bakeoff, opened, "Copiers")
    system, _ = rival(bakeoff, opened, "Systems")
    copied = post(copier, opened, ONE_LINE_CHANGED, on_commit)
    honest = post(system, opened, SYSTEM, on_commit)
    assert copied.lines_as_gold == 199 / 200 and copied.near_gold
    assert honest.lines_as_gold == pytest.approx(133 / 200) and not honest.near_gold
    assert 133 / 200 < NEAR_GOLD <= 199 / 200

    english = Client().get(f"/bakeoffs/{bakeoff.slug}/tracks/{opened.slug}/").content.decode()
    assert english.count("of its lines segmented exactly as the published gold") == 1
    assert "99.5 % of its lines" in english
    chinese = (
        Client()
        .get(f"/bakeoffs/{bakeoff.slug}/tracks/{opened.slug}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
        .content.decode()
    )
    assert "99.5% 的行与已发布的标准答案切分完全相同" in chinese

    data = json.loads(
        Client().get(f"/bakeoffs/{bakeoff.slug}/tracks/{opened.slug}/results.json").content
    )
    marks = sorted((row["lines_as_gold"], row["near_gold"]) for row in data["post_bakeoff"])
    assert marks == [(133 / 200, False), (199 / 200, True)]
