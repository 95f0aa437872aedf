"""What psychometric does when bakeoff announces a change (connected in
``PsychometricConfig.ready``)."""

from __future__ import annotations

from typing import Any

from bakeoff.models import Score

from . import tasks
from .models import Committee, CommitteeStatus


def balance_score(*, score: Score, **_: Any) -> None:
    """A word score was stored: P_b, R_b, F_b, once committed, when its gold version's words
    have a complete committee."""
    if Committee.objects.filter(
        gold_version_id=score.gold_version_id, status=CommitteeStatus.COMPLETE
    ).exists():
        tasks.balance_score.delay_on_commit(score.pk)
