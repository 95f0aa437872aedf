"""Celery tasks of the committee: thin shells around services, taking primary keys."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from bakeoff import clock
from bakeoff.task_base import PlatformTask

from . import services


def _fail_committee(committee_id: int, error: Exception) -> None:
    # A bug must not leave the committee running for ever: fail it with a reason.
    services.do_mark_committee_failed(
        committee_id,
        f"Internal error while building the committee ({type(error).__name__}).",
        now=clock.now(),
    )


@shared_task(base=PlatformTask, fail=_fail_committee)
def build_committee(committee_id: int) -> None:
    services.do_build_committee(committee_id)


def _fail_member(member_id: int, error: Exception) -> None:
    services.do_mark_member_failed(
        member_id,
        f"Internal error while training a committee member ({type(error).__name__}).",
        now=clock.now(),
    )


@shared_task(base=PlatformTask, bind=True, fail=_fail_member)
def train_member(self: Any, member_id: int) -> None:
    # A message handed back by the broker means its first worker died (the visibility timeout
    # outlasts any task): the member it left training is taken again.
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    services.do_train_member(member_id, redelivered=redelivered)


@shared_task(base=PlatformTask, fail=_fail_committee)
def assemble_committee(committee_id: int) -> None:
    services.do_assemble_committee(committee_id)


@shared_task(base=PlatformTask)
def apply_committee(committee_id: int) -> int:
    return services.do_apply_committee(committee_id)


@shared_task(base=PlatformTask)
def balance_score(score_id: int) -> None:
    services.do_balance_score(score_id)
