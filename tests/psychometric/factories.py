"""A small segmented training text, and a committee built as the organiser would."""

from __future__ import annotations

from bakeoff.models import Corpus
from psychometric.models import Committee
from psychometric.services import do_start_committee
from tests.hints import OnCommit

# Enough sentences for a 10% sample to hold a few; the test sentences' words all occur.
TRAINING = (
    "结婚 的 和 尚未 结婚 的\n我们 在 北京 工作\n今天 天气 很 好\n"
    "我们 结婚 了\n北京 天气 很 好\n和尚 在 北京\n今天 我们 工作\n"
    "他们 尚未 结婚\n天气 好\n我们 的 北京\n"
) * 3


def build(
    corpus: Corpus, on_commit: OnCommit, *, kind: str = "crf", k: int = 3, seed: int = 1
) -> Committee:
    """Start a committee and run its tasks (the build, then the balanced scores of every run)."""
    with on_commit():
        committee = do_start_committee(corpus, kind=kind, k=k, seed=seed, max_iterations=10)
    committee.refresh_from_db()
    return committee
