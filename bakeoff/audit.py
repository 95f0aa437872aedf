"""The audit trail: an append-only record of what happened to a bakeoff, who did it and when.

Services call ``record`` inside the transaction that makes the change, so an entry exists exactly
when the change does. Nothing here updates or deletes an entry (``AuditEntry`` refuses both, and on
PostgreSQL a trigger does too). A disputed result is reconstructed by reading a bakeoff's entries
in order.

``action`` is one of the names below; new kinds of events add a name here, never a migration.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from . import clock
from .models import AuditEntry, Bakeoff, Site, Track

REGISTRATION_APPLIED = "registration.applied"
REGISTRATION_APPROVED = "registration.approved"
REGISTRATION_REFUSED = "registration.refused"
RUN_ACCEPTED = "run.accepted"
RUN_REFUSED = "run.refused"
RUN_SCORED = "run.scored"
RUN_WITHDRAWN = "run.withdrawn"
RUN_RESCORED = "run.rescored"
RUN_LATENESS_DECIDED = "run.lateness_decided"
TIMETABLE_CHANGED = "timetable.changed"
GOLD_VERSION_ADDED = "gold.added"
CORRECTION_ACCEPTED = "gold.correction_accepted"
RESULTS_PUBLISHED = "results.published"
ERRATUM_PUBLISHED = "results.erratum"
RESULTS_WITHDRAWN = "results.withdrawn"
BAKEOFF_OPENED = "bakeoff.opened"
DOMAIN_LABELS_SET = "corpus.domain_labels"
POST_BAKEOFF_OPENED = "track.post_bakeoff_opened"
POST_BAKEOFF_CLOSED = "track.post_bakeoff_closed"
DEVELOPMENT_SET_ADDED = "corpus.development_set"
# What organisers change through their pages (bakeoff.services.organising).
ORGANISER_ADDED = "organiser.added"
ORGANISER_REMOVED = "organiser.removed"
CORPUS_EDITED = "corpus.edited"
TRACK_EDITED = "track.edited"
SITE_EDITED = "site.edited"
REGISTRATION_ADDED = "registration.added"

# For people: the organiser's page filters and labels entries by these.
LABELS = {
    REGISTRATION_APPLIED: "Registration applied for",
    REGISTRATION_APPROVED: "Registration approved",
    REGISTRATION_REFUSED: "Registration refused",
    RUN_ACCEPTED: "Run accepted",
    RUN_REFUSED: "Upload refused",
    RUN_SCORED: "Run scored",
    RUN_WITHDRAWN: "Run withdrawn",
    RUN_RESCORED: "Runs queued for re-scoring",
    RUN_LATENESS_DECIDED: "Lateness decided",
    TIMETABLE_CHANGED: "Timetable changed",
    GOLD_VERSION_ADDED: "Gold version added",
    CORRECTION_ACCEPTED: "Gold correction accepted",
    RESULTS_PUBLISHED: "Results published",
    ERRATUM_PUBLISHED: "Erratum published",
    BAKEOFF_OPENED: "Bakeoff opened",
}


def record(
    bakeoff: Bakeoff,
    action: str,
    subject: str,
    *,
    actor: Any = None,
    track: Track | None = None,
    site: Site | None = None,
    now: datetime | None = None,
    **details: Any,
) -> AuditEntry:
    """Append one entry. ``details`` must be what JSON can hold once dates become ISO strings
    (checksums, reasons, the old and new values of a change)."""
    authenticated = actor is not None and getattr(actor, "is_authenticated", False)
    return AuditEntry.objects.create(
        bakeoff=bakeoff,
        at=now or clock.now(),
        action=action,
        actor=actor if authenticated else None,
        actor_label=actor.get_username() if authenticated else "",
        track=track,
        site=site,
        subject=subject[:300],
        details=json.loads(json.dumps(details, cls=DjangoJSONEncoder)),
    )
