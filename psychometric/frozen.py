"""The balanced scores a results version keeps (``sections["psychometric"]`` of each frozen track),
and reading them back.

``freeze_balanced`` receives ``leaderboard.signals.results_freezing``: for every run of the frozen
table, the balanced row (P_b, R_b, F_b, their sums and difficulty profile) of the gold version its
frozen score names, and the hardest gold words of the committees that made them. After publication
the run page's balanced section reads these (``thawed_balanced``), never the live rows, so a
committee that finishes after publication changes nothing public until an erratum freezes it
(docs/track-table.md#results-versions).

The section is JSON, read with ``.get`` and defaults: a version frozen before the section existed
has none, and its pages say the balanced scores are not in that version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.utils.dateparse import parse_datetime

from bakeoff.models import Score

from .models import BALANCED, Committee

KEY = "psychometric"


def freeze_balanced(*, tracks: dict[int, dict[str, Any]], **_: Any) -> None:
    """Each frozen track gains its runs' balanced scores as they stand (two queries in all)."""
    wanted: dict[tuple[int, int], int] = {}  # (run, gold version number) -> track pk
    for track_pk, data in tracks.items():
        data["sections"][KEY] = {"runs": {}, "committees": {}}
        for row in data.get("rows", []):
            wanted[(row["submission"], row["score"]["gold_version"])] = track_pk
    balanced = Score.objects.filter(
        metric=BALANCED, submission_id__in={run for run, _gold in wanted}
    ).select_related("gold_version")
    used: dict[int, set[int]] = {}  # committee pk -> the tracks whose runs it rated
    for score in balanced:
        found = wanted.get((score.submission_id, score.gold_version.number))
        if found is None:  # a balanced row of another gold version than the frozen score's
            continue
        tracks[found]["sections"][KEY]["runs"][str(score.submission_id)] = {
            "recall": score.recall,
            "precision": score.precision,
            "f": score.f,
            "signature": score.signature,
            "result": score.result,
            "created_at": score.created_at.isoformat(),
        }
        committee = (score.result or {}).get("committee_id")
        if committee is not None:
            used.setdefault(committee, set()).add(found)
    for committee in Committee.objects.filter(pk__in=list(used)).only("pk", "number", "hardest"):
        for track_pk in used[committee.pk]:
            tracks[track_pk]["sections"][KEY]["committees"][str(committee.pk)] = {
                "number": committee.number,
                "hardest": committee.hardest,
            }


@dataclass(frozen=True)
class FrozenBalanced:
    """What a results version says of one run's balanced scores.

    ``in_version`` is False for a version frozen before balanced scores were frozen with it;
    ``score`` is None when no committee had rated the gold when the version was frozen."""

    in_version: bool
    score: Score | None = None
    hardest: list[dict[str, Any]] = field(default_factory=list)


def thawed_balanced(sections: dict[str, Any], submission_id: int) -> FrozenBalanced:
    """The run's balanced scores as the frozen ``sections`` of its track hold them (an unsaved
    ``Score``, never to be saved)."""
    section = sections.get(KEY)
    if not isinstance(section, dict):
        return FrozenBalanced(in_version=False)
    run = section.get("runs", {}).get(str(submission_id))
    if run is None:
        return FrozenBalanced(in_version=True)
    result = run.get("result") or {}
    committee = section.get("committees", {}).get(str(result.get("committee_id")), {})
    score = Score(
        submission_id=submission_id,
        metric=BALANCED,
        recall=run.get("recall"),
        precision=run.get("precision"),
        f=run.get("f"),
        signature=run.get("signature", ""),
        result=result,
        created_at=_instant(run.get("created_at")) or EPOCH,
    )
    return FrozenBalanced(in_version=True, score=score, hardest=committee.get("hardest", []))


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _instant(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None
