"""Changing a bakeoff's timetable: checked, recorded, never silent.

- Once the results are published submissions are closed for good: the test release and the
  deadline (and its grace period) can no longer change, so nothing can reopen them.
- Moving the deadline before runs already received shows those runs; the organiser decides to
  keep them as on time (with a reason) or to mark them late (kept, never ranked). Either way each
  run's decision is in the audit trail.
- Every change is recorded (``audit.TIMETABLE_CHANGED``: old and new values, the organiser's
  note); those made once the test data is out are shown on the bakeoff's page
  (``public_changes``), and every change is mailed to every registered site
  (``signals.timetable_changed``), so that no one learns of a moved deadline by chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from bakeoff.errors import interpolate

from .. import audit, clock, signals
from ..audit_text import LATENESS_KEPT, LATENESS_LATE, TIMETABLE_CHANGED, Subject, run_facts
from ..errors import Refused
from ..models import AuditEntry, Bakeoff, Submission, SubmissionKind
from ..phase_table import official_phases

TIMETABLE = (
    "registration_opens",
    "registration_closes",
    "training_released",
    "test_released",
    "submission_deadline",
)
# What would reopen submissions once the results are out.
CLOSED_AFTER_PUBLICATION = ("test_released", "submission_deadline", "grace_minutes")
KEEP = "keep"
LATE = "late"


class LateRunsNeedDecision(Refused):
    """The new deadline comes before runs already received: the organiser must decide."""

    code = "late_runs_need_decision"

    def __init__(self, runs: list[Submission]) -> None:
        super().__init__(
            interpolate(
                ngettext_lazy(
                    "%(count)d run arrived after the new deadline: keep it as on time (say why) "
                    "or mark it late (never ranked).",
                    "%(count)d runs arrived after the new deadline: keep them as on time (say "
                    "why) or mark them late (never ranked).",
                    "count",
                ),
                count=len(runs),
            )
        )
        self.runs = runs


@dataclass
class TimetableChange:
    changed: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    after_new_deadline: list[Submission] = field(default_factory=list)


def _utc(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return value


def runs_after(bakeoff: Bakeoff, deadline: datetime, grace_minutes: int) -> list[Submission]:
    """The official runs received after ``deadline`` (and its grace) and not yet marked late."""
    until = deadline + timedelta(minutes=grace_minutes)
    return list(
        Submission.objects.filter(
            track__corpus__bakeoff=bakeoff,
            kind=SubmissionKind.RUN,
            phase__in=official_phases(),
            received_at__gt=until,
            late=False,
        )
        .select_related("site", "track__corpus")
        .order_by("received_at")
    )


def check_timetable_change(
    bakeoff: Bakeoff, new: Mapping[str, Any], *, now: datetime
) -> TimetableChange:
    """What changes, refused when it would reopen published results; the runs received after
    the new deadline when it moves earlier. ``bakeoff`` holds the stored values."""
    fields = (*TIMETABLE, "grace_minutes")
    changed = {
        name: (getattr(bakeoff, name), new[name])
        for name in fields
        if name in new and new[name] != getattr(bakeoff, name)
    }
    if bakeoff.is_published(now):
        closed = [name for name in CLOSED_AFTER_PUBLICATION if name in changed]
        if closed:
            raise Refused(
                _(
                    "The results are published: submissions are closed for good, so the test "
                    "release, the deadline and its grace period can no longer change."
                )
            )
    deadline = new.get("submission_deadline", bakeoff.submission_deadline)
    grace = new.get("grace_minutes", bakeoff.grace_minutes)
    if bakeoff.results_published is not None and deadline > bakeoff.results_published:
        raise Refused(
            interpolate(
                _(
                    "The deadline must come before the publication of the "
                    "results, scheduled for %(utc)s."
                ),
                utc=_utc(bakeoff.results_published),
            )
        )
    earlier = deadline + timedelta(minutes=grace) < bakeoff.accepts_runs_until
    return TimetableChange(changed, runs_after(bakeoff, deadline, grace) if earlier else [])


def do_change_timetable(
    bakeoff: Bakeoff,
    new: Mapping[str, Any],
    *,
    by: Any = None,
    decision: str = "",
    reason: str = "",
    note: str = "",
    now: datetime | None = None,
) -> TimetableChange:
    """Apply the new timetable values (``TIMETABLE`` and ``grace_minutes``), recorded and told
    to the registered sites with the organiser's ``note``.

    When the deadline moves before runs already received, ``decision`` must be ``KEEP`` (with a
    ``reason``) or ``LATE``; else ``LateRunsNeedDecision`` names the runs."""
    now = now or clock.now()
    reason = reason.strip()
    note = note.strip()
    with transaction.atomic():
        stored = Bakeoff.objects.select_for_update().get(pk=bakeoff.pk)
        change = check_timetable_change(stored, new, now=now)
        runs = change.after_new_deadline
        if runs and decision not in (KEEP, LATE):
            raise LateRunsNeedDecision(runs)
        if runs and decision == KEEP and not reason:
            raise Refused(_("Say why the runs received after the new deadline count as on time."))
        if not change.changed:
            return change
        test_out = now >= stored.test_released  # before this change
        for name, (_old, value) in change.changed.items():
            setattr(stored, name, value)
        stored.save(update_fields=list(change.changed))
        audit.record(
            stored,
            audit.TIMETABLE_CHANGED,
            Subject(
                TIMETABLE_CHANGED,
                {
                    "changes": [
                        [name, _utc(old), _utc(new)] for name, (old, new) in change.changed.items()
                    ]
                },
            ),
            actor=by,
            now=now,
            changes={name: [old, value] for name, (old, value) in change.changed.items()},
            after_test_release=test_out,
            runs_after_new_deadline=[run.pk for run in runs],
            decision=decision if runs else "",
            reason=reason if runs else "",
            note=note,
        )
        for run in runs:
            if decision == LATE:
                Submission.objects.filter(pk=run.pk).update(late=True)
                run.late = True
            audit.record(
                stored,
                audit.RUN_LATENESS_DECIDED,
                Subject(
                    LATENESS_KEPT if decision == KEEP else LATENESS_LATE,
                    {
                        "track": run.track.name,
                        "run": run_facts(run),
                        "received": _utc(run.received_at),
                    },
                ),
                actor=by,
                track=run.track,
                site=run.site,
                now=now,
                submission=run.pk,
                received_at=run.received_at,
                deadline=stored.submission_deadline,
                decision=decision,
                reason=reason,
            )
            if decision == LATE:
                signals.run_marked_late.send(sender=Submission, submission=run, now=now)
        signals.timetable_changed.send(
            sender=Bakeoff, bakeoff=stored, changes=change.changed, note=note, now=now
        )
    for name, (_old, value) in change.changed.items():
        setattr(bakeoff, name, value)
    return change


LABELS = {
    "registration_opens": "Registration opens",
    "registration_closes": "Registration closes",
    "training_released": "Training data released",
    "test_released": "Test data released",
    "submission_deadline": "Submission deadline",
    "grace_minutes": "Grace period (minutes)",
}


def public_changes(bakeoff: Bakeoff) -> list[dict[str, Any]]:
    """The timetable changes made once the test data was out, oldest first (shown to all):
    ``{"at", "changes": [(label, old, new)], "late_runs", "decision", "reason", "note"}``."""
    shown = []
    entries = AuditEntry.objects.filter(bakeoff=bakeoff, action=audit.TIMETABLE_CHANGED)
    for entry in entries.order_by("at", "pk"):
        details = entry.details
        if not details.get("after_test_release"):
            continue
        changes = [
            (LABELS.get(name, name), _parsed(old), _parsed(new))
            for name, (old, new) in details.get("changes", {}).items()
        ]
        shown.append(
            {
                "at": entry.at,
                "changes": changes,
                "late_runs": len(details.get("runs_after_new_deadline", [])),
                "decision": details.get("decision", ""),
                "reason": details.get("reason", ""),
                "note": details.get("note", ""),
            }
        )
    return shown


def _parsed(value: Any) -> Any:
    if isinstance(value, str):
        return parse_datetime(value) or value
    return value
