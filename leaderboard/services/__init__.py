"""The leaderboard's rules: ``ranking`` (a track's standings, ranked when its scores change) and
``publication`` (publishing the results, errata, a standing leaderboard)."""

from .publication import (
    check_can_publish,
    do_open_standing,
    do_publish,
    do_publish_erratum,
    do_withdraw_publication,
    pending_changes,
    publication_preview,
    site_aliases,
)
from .ranking import (
    RANKED_TABLES,
    REFERENCE_ORDER,
    rank_all,
    rank_track,
    rank_until_current,
    rank_when_free,
    scores_fingerprint,
)

__all__ = [
    "RANKED_TABLES",
    "REFERENCE_ORDER",
    "check_can_publish",
    "do_open_standing",
    "do_publish",
    "do_publish_erratum",
    "do_withdraw_publication",
    "pending_changes",
    "publication_preview",
    "rank_all",
    "rank_track",
    "rank_until_current",
    "rank_when_free",
    "scores_fingerprint",
    "site_aliases",
]
