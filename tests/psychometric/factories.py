"""A small segmented training text, and a committee built as the organiser would."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.contrib.auth.models import User
from django.test import override_settings

from bakeoff.models import Bakeoff, Corpus, Track
from psychometric import services as psychometric
from psychometric.models import Committee
from psychometric.services import do_start_committee
from tests.factories import make_bakeoff, make_corpus, make_user, track
from tests.hints import OnCommit
from tests.module_world import captured_on_commit

T = TypeVar("T")

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


@dataclass
class Scored:
    """The package's shared fixtures: PK with its training text, BASE and TOP scored."""

    organiser: User
    participant: User
    bakeoff: Bakeoff
    corpus: Corpus
    closed: Track


def built_as_the_package_tests(more: Callable[[Scored], T]) -> T:
    """A module's world (tests/module_world.py): the shared fixtures, then what ``more`` adds to
    them, built under the settings and caches of the package's fresh_caches (20 bootstrap samples,
    the committees' caches empty before and after)."""
    with override_settings(ANALYSIS_BOOTSTRAP_SAMPLES=20):
        psychometric.clear()
        organiser, participant = make_user("olga", is_staff=True), make_user("pat")
        bakeoff = make_bakeoff(organiser=organiser)
        with captured_on_commit():
            corpus = make_corpus(bakeoff, training=TRAINING)
        world = more(Scored(organiser, participant, bakeoff, corpus, track(corpus, "closed")))
        psychometric.clear()
    return world
