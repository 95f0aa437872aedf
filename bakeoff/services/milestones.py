"""The moments of a timetable that people are told of: data released, the deadline approaching,
results public. Celery beat runs ``do_announce_milestones`` every few minutes; each milestone of
each bakeoff is announced once (a unique row), while it is still recent."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q

from .. import clock, signals
from ..models import Bakeoff, Milestone

LATE = timedelta(hours=12)  # a milestone noticed later than this is left unannounced

# Each milestone: its moment, and the end of the window in which it is announced.
MILESTONES: dict[str, Callable[[Bakeoff], tuple[datetime | None, datetime | None]]] = {
    "training_released": lambda b: (b.training_released, b.training_released + LATE),
    "test_released": lambda b: (b.test_released, b.test_released + LATE),
    "deadline_48h": lambda b: (
        b.submission_deadline - timedelta(hours=48),
        b.submission_deadline - timedelta(hours=2),
    ),
    "deadline_2h": lambda b: (b.submission_deadline - timedelta(hours=2), b.submission_deadline),
    "results_published": lambda b: (
        b.results_published,
        b.results_published + LATE if b.results_published else None,
    ),
}


def due_milestones(bakeoff: Bakeoff, now: datetime) -> list[tuple[str, datetime]]:
    due = []
    for name, window in MILESTONES.items():
        at, until = window(bakeoff)
        if at is not None and until is not None and at <= now < until:
            due.append((name, at))
    return due


def do_announce_milestones(*, now: datetime | None = None) -> list[tuple[str, str]]:
    """Announce every milestone that is due and was not announced; answers (bakeoff, name)."""
    now = now or clock.now()
    soon = now + timedelta(hours=48)
    recent = now - LATE
    candidates = Bakeoff.objects.filter(opened_at__isnull=False).filter(
        Q(training_released__range=(recent, now))
        | Q(test_released__range=(recent, now))
        | Q(submission_deadline__range=(now, soon))
        | Q(results_published__range=(recent, now))
    )
    announced = []
    for bakeoff in candidates:
        for name, at in due_milestones(bakeoff, now):
            try:
                with transaction.atomic():
                    Milestone.objects.create(bakeoff=bakeoff, name=name, at=at, announced_at=now)
                    signals.milestone_reached.send(
                        sender=Milestone, bakeoff=bakeoff, milestone=name, at=at, now=now
                    )
            except IntegrityError:
                continue  # announced already (or at this very moment by another worker)
            announced.append((bakeoff.slug, name))
    return announced
