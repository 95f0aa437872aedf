"""A committee trained one member at a time (as the platform's member tasks do) is the committee
``build_committee`` trains at once: same members, same misses, same JSON."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.core.errors import ScoringError
from scoring.psychometric.committee import crf_committee, train_member

from .test_committee import TRAINING, gold_index, small_committee


def test_members_trained_apart_make_the_same_committee() -> None:
    index = gold_index()
    votes = [
        train_member(TRAINING, index, number=n, k=3, seed=1, max_iterations=10) for n in (3, 1, 2)
    ]
    votes.sort(key=lambda vote: vote.member.name)
    apart = crf_committee(votes, index, TRAINING, seed=1, max_iterations=10)
    together = small_committee(seed=1)
    assert apart.to_dict() == together.to_dict()
    assert np.array_equal(apart.misses, together.misses)


def test_a_member_outside_the_committee_is_refused() -> None:
    with pytest.raises(ScoringError, match="member 4 of a committee of 3"):
        train_member(TRAINING, gold_index(), number=4, k=3)
