"""What happens to committees, announced to the apps above psychometric (which it never imports).

``committee_finished``
    A committee build ended: ``complete`` (``do_build_committee``) or ``failed``
    (``do_mark_committee_failed``, or too many attempts). Sent inside the transaction that
    changed its status. Arguments: ``committee`` (its ``status`` and ``reason`` say how),
    ``now``.
"""

from __future__ import annotations

from django.dispatch import Signal

committee_finished = Signal()
