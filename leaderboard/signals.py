"""What happens to a bakeoff's results, announced to the apps above the leaderboard.

Sent inside the transaction that made the change (see ``bakeoff.signals``); receivers are
connected in their app's ``AppConfig.ready()``.

``results_published``
    The organiser published the results, or scheduled their publication (``do_publish``).
    Arguments: ``bakeoff``, ``publication`` (mode and aliases), ``at`` (when they are, or will
    be, public: it may be later than ``now``), ``now``.
"""

from __future__ import annotations

from django.dispatch import Signal

results_published = Signal()
