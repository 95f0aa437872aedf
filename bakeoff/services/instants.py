"""An instant as a refusal message states it: in UTC, which every reader can compare with the
server's clock, then in the bakeoff's own zone, which its timetable is written in.

The pages do more (``bakeoff_tags.in_zones`` adds the reader's zone); a message is plain text
that may be mailed, logged or answered by the API, so it carries the two zones everybody shares.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..models import Bakeoff


def stamp(instant: datetime, bakeoff: Bakeoff | None = None) -> str:
    """``2026-03-03 12:00:00 UTC``, then ``(20:00:00 CST, Asia/Shanghai)`` when the bakeoff keeps
    its timetable in another zone; the date is repeated there only when it differs.

    >>> stamp(datetime(2026, 3, 3, 12, tzinfo=UTC))
    '2026-03-03 12:00:00 UTC'
    """
    utc = instant.astimezone(UTC)
    text = f"{utc:%Y-%m-%d %H:%M:%S} UTC"
    if bakeoff is None or bakeoff.time_zone == "UTC":
        return text
    local = instant.astimezone(bakeoff.zone)
    shown = f"{local:%H:%M:%S}" if local.date() == utc.date() else f"{local:%Y-%m-%d %H:%M:%S}"
    return f"{text} ({shown} {local.tzname()}, {bakeoff.time_zone})"
