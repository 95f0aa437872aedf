"""Celery tasks of the committee: thin shells around services, taking primary keys. The task's
id is its claim on the committee or member it works on (``bakeoff/lease.py``): a task redelivered
after its worker died keeps it."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from bakeoff import clock
from bakeoff.task_base import PlatformTask

from . import failures, services


def _token(task: Any) -> str:
    request = task.request
    return "" if request.is_eager else str(request.id or "")


def _fail_committee(committee_id: int, error: Exception) -> None:
    # A bug must not leave the committee running for ever: fail it with a reason.
    services.do_mark_committee_failed(
        committee_id,
        failures.failure(failures.INTERNAL_ERROR, {"error": type(error).__name__}),
        now=clock.now(),
    )


@shared_task(base=PlatformTask, bind=True, fail=_fail_committee)
def build_committee(self: Any, committee_id: int) -> None:
    services.do_build_committee(committee_id, token=_token(self))


def _fail_member(member_id: int, error: Exception) -> None:
    services.do_mark_member_failed(
        member_id,
        failures.failure(failures.MEMBER_INTERNAL_ERROR, {"error": type(error).__name__}),
        now=clock.now(),
    )


@shared_task(base=PlatformTask, bind=True, fail=_fail_member)
def train_member(self: Any, member_id: int) -> None:
    services.do_train_member(member_id, token=_token(self))


@shared_task(base=PlatformTask, bind=True, fail=_fail_committee)
def assemble_committee(self: Any, committee_id: int) -> None:
    services.do_assemble_committee(committee_id, token=_token(self))


@shared_task(base=PlatformTask)
def apply_committee(committee_id: int) -> int:
    return services.do_apply_committee(committee_id)


@shared_task(base=PlatformTask)
def balance_score(score_id: int) -> None:
    services.do_balance_score(score_id)
