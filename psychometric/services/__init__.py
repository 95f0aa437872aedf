"""The rules of committees and balanced scores: ``check_*`` decide, ``do_*`` change data."""

from .balanced import balanced_figures, clear, do_apply_committee, do_balance_score
from .committees import (
    MAX_K,
    check_committee,
    current_committee,
    do_assemble_committee,
    do_build_committee,
    do_mark_committee_failed,
    do_mark_member_failed,
    do_requeue_abandoned,
    do_start_committee,
    do_train_member,
)
from .words import HARDEST, gold_words, hardest_words

__all__ = [
    "HARDEST",
    "MAX_K",
    "balanced_figures",
    "check_committee",
    "clear",
    "current_committee",
    "do_apply_committee",
    "do_assemble_committee",
    "do_balance_score",
    "do_build_committee",
    "do_mark_committee_failed",
    "do_mark_member_failed",
    "do_requeue_abandoned",
    "do_start_committee",
    "do_train_member",
    "gold_words",
    "hardest_words",
]
