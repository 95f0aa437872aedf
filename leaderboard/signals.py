"""What happens to a bakeoff's results, announced to the apps above the leaderboard.

Sent inside the transaction that made the change (see ``bakeoff.signals``); receivers are
connected in their app's ``AppConfig.ready()``.

``results_published``
    The organiser published the results, or scheduled their publication (``do_publish``).
    Arguments: ``bakeoff``, ``publication`` (mode and aliases), ``at`` (when they are, or will
    be, public: it may be later than ``now``), ``now``, ``version`` (the frozen ResultsVersion).

``results_freezing``
    A results version is being frozen (publication or erratum): receivers add what they show
    beside the tables to ``tracks[track_pk]["sections"][<their app>]`` (JSON only), so the
    frozen pages show it as it stood. Arguments: ``bakeoff``, ``tracks``.

``track_ranked``
    A track's ranking (its standings, post-bakeoff rows and figures) was stored
    (``services._store``): in the transaction of the score, withdrawal or late mark that changed
    it, or in a later one when another process was ranking the track. Arguments: ``track_id``,
    ``now``.

``erratum_published``
    The organiser published an erratum: a new results version, public at once, whose
    ``changes`` list what moved. Arguments: ``bakeoff``, ``version``, ``now``.
"""

from __future__ import annotations

from django.dispatch import Signal

results_published = Signal()
track_ranked = Signal()
results_freezing = Signal()
erratum_published = Signal()
