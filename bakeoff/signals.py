"""What happens in a bakeoff, announced to the apps above it (which bakeoff never imports).

Each signal is sent by a service inside the transaction that made the change, so a receiver may
write in that same transaction (the leaderboard ranks the track there), and puts queued work on
``transaction.on_commit`` (``task.delay_on_commit``) so that it starts only once the change is
visible. Receivers are connected in their app's ``AppConfig.ready()``; an exception in one rolls
the change back.

``score_stored``
    A word score was stored (``do_store_score``). Arguments: ``score`` (the Score row),
    ``submission``, ``gold`` (its GoldVersion), ``now``.
``gold_version_added``
    A corpus has a new gold version (``do_add_gold_version``); its runs are queued for scoring
    again. Arguments: ``gold`` (the GoldVersion), ``corpus``, ``now``.
"""

from __future__ import annotations

from django.dispatch import Signal

score_stored = Signal()
gold_version_added = Signal()
