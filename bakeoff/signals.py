"""What happens in a bakeoff, announced to the apps above it (which bakeoff never imports).

Each signal is sent by a service inside the transaction that made the change, so a receiver may
write in that same transaction (the leaderboard ranks the track there), and puts queued work on
``transaction.on_commit`` (``task.delay_on_commit``) so that it starts only once the change is
visible. Receivers are connected in their app's ``AppConfig.ready()``; an exception in one rolls
the change back.

``score_stored``
    A word score was stored (``do_store_score``). Arguments: ``score`` (the Score row),
    ``submission``, ``gold`` (its GoldVersion), ``now``.
``development_scored``
    A development run was scored against its corpus's development set (``score_development``):
    never a ``Score``, never ranked. Arguments: ``score`` (the DevelopmentScore row),
    ``submission``, ``now``.
``gold_version_added``
    A corpus has a new gold version (``do_add_gold_version``); its runs are queued for scoring
    again. Arguments: ``gold`` (the GoldVersion), ``corpus``, ``now``.
``registration_received``
    A site asked for tracks (``do_add_registrations``, ``do_register_site``). Arguments:
    ``site``, ``registrations`` (the new Registration rows), ``now``. Sent before a bakeoff
    that approves at once approves them.
``registration_decided``
    An organiser (or the bakeoff's ``auto_approve``) approved or refused a registration
    (``do_approve_registration``, ``do_refuse_registration``), or gave the reason of a refusal
    made without one (``do_give_refusal_reason``). Arguments: ``registration`` (its ``status``
    says which, ``refusal_reason`` why), ``now``; ``reason_later`` (True for a reason given
    after the refusal).
``run_received``
    A run was accepted and queued for scoring (``do_accept_run``). Arguments: ``submission``,
    ``now`` (its receipt time).
``run_withdrawn``
    A site withdrew a run before the deadline (``do_withdraw_run``): it is never ranked again.
    Arguments: ``submission`` (its ``withdrawn_at`` set), ``now``.
``run_failed``
    A submission ended in ``failed`` (``do_mark_failed``, or too many attempts). Arguments:
    ``submission``, ``reason``, ``internal`` (True when the platform, not the run, is at fault:
    a crash or a worker that never finished), ``now``.
``milestone_reached``
    A moment of a bakeoff's timetable came (``do_announce_milestones``, run every few minutes
    by Celery beat): ``training_released``, ``test_released``, ``deadline_48h``,
    ``deadline_2h``, ``results_published``. Sent once per bakeoff and milestone. Arguments:
    ``bakeoff``, ``milestone``, ``at`` (the moment), ``now``.
``invitation_created``
    An organiser invited an address (``do_invite``, ``do_invite_sites``). Arguments:
    ``invitation``, ``path`` (the one-time link, a path on the site), ``now``.
``announcement_posted``
    An organiser posted an announcement (``do_post_announcement``). Arguments:
    ``announcement`` (its ``tracks``, when any, name the sites it is for), ``now``.
``bucket_scheme_changed``
    The organiser chose another bucket scheme for a track (``do_set_bucket_scheme``). Arguments:
    ``track``, ``now``.
``domain_labels_changed``
    The organiser labelled a corpus's test lines with domains, or replaced its labels
    (``do_set_domain_labels``); the figures per domain of its scores are queued. Arguments:
    ``corpus``, ``now``.
``run_marked_late``
    The organiser moved the deadline before a run already received and marked it late
    (``do_change_timetable``): it is kept, never ranked, so its track is ranked again. Arguments:
    ``submission``, ``now``.
``timetable_changed``
    The organiser changed the timetable (``do_change_timetable``). Arguments: ``bakeoff`` (with
    its new values), ``changes`` (each changed field's name: its old and new value, instants or
    the grace minutes), ``note`` (the organiser's words to the sites, maybe empty), ``now``.
"""

from __future__ import annotations

from django.dispatch import Signal

score_stored = Signal()
development_scored = Signal()
gold_version_added = Signal()
registration_received = Signal()
registration_decided = Signal()
run_received = Signal()
run_withdrawn = Signal()
run_failed = Signal()
milestone_reached = Signal()
invitation_created = Signal()
announcement_posted = Signal()
bucket_scheme_changed = Signal()
domain_labels_changed = Signal()
run_marked_late = Signal()
timetable_changed = Signal()
