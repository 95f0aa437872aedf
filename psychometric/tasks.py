"""Celery tasks of the committee: thin shells around services, taking primary keys."""

from __future__ import annotations

import logging

from celery import shared_task

from bakeoff import clock
from bakeoff.tasks import TASK_OPTIONS, TRANSIENT

from . import services

logger = logging.getLogger(__name__)


@shared_task(**TASK_OPTIONS)
def build_committee(committee_id: int) -> None:
    try:
        services.do_build_committee(committee_id)
    except TRANSIENT:
        raise
    except Exception as error:
        # A bug must not leave the committee running for ever: fail it with a reason.
        logger.exception("building committee %s failed", committee_id)
        services.do_mark_committee_failed(
            committee_id,
            f"Internal error while building the committee ({type(error).__name__}).",
            now=clock.now(),
        )


@shared_task(**TASK_OPTIONS)
def apply_committee(committee_id: int) -> int:
    return services.do_apply_committee(committee_id)


@shared_task(**TASK_OPTIONS)
def balance_score(score_id: int) -> None:
    services.do_balance_score(score_id)
