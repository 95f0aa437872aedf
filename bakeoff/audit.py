"""The audit trail: an append-only record of what happened to a bakeoff, who did it and when.

Services call ``record`` inside the transaction that makes the change, so an entry exists exactly
when the change does. Nothing here updates or deletes an entry (``AuditEntry`` refuses both, and on
PostgreSQL a trigger does too). A disputed result is reconstructed by reading a bakeoff's entries
in order.

``action`` is one of the names below; new kinds of events add a name here, never a migration.
A subject given as an ``audit_text.Subject`` is stored as English text and as its code and facts,
from which the organisers' page says it in its reader's language.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from . import clock
from .audit_text import IN_LANGUAGES as IN_LANGUAGES
from .audit_text import RUN, Subject, run_facts
from .models import AuditEntry, Bakeoff, Site, Submission, Track

REGISTRATION_APPLIED = "registration.applied"
REGISTRATION_APPROVED = "registration.approved"
REGISTRATION_REFUSED = "registration.refused"
RUN_ACCEPTED = "run.accepted"
RUN_REFUSED = "run.refused"
RUN_SCORED = "run.scored"
RUN_FAILED = "run.failed"
RUN_REQUEUED = "run.requeued"
RUN_WITHDRAWN = "run.withdrawn"
# A site asked to withdraw its run after its phase closed (services.submissions.do_withdraw_run)
RUN_WITHDRAWAL_REFUSED = "run.withdrawal_refused"
RUN_RESCORED = "run.rescored"
RUN_LATENESS_DECIDED = "run.lateness_decided"
PAPER_ATTACHED = "run.paper_attached"
TIMETABLE_CHANGED = "timetable.changed"
GOLD_VERSION_ADDED = "gold.added"
CORRECTION_ACCEPTED = "gold.correction_accepted"
RESULTS_PUBLISHED = "results.published"
ERRATUM_PUBLISHED = "results.erratum"
# Version 1 frozen afterwards for results published before versions existed (leaderboard.backfill)
RESULTS_FROZEN = "results.frozen"
RESULTS_WITHDRAWN = "results.withdrawn"
BAKEOFF_OPENED = "bakeoff.opened"
# From the page, a bundle or another bakeoff (bakeoff.services.bakeoffs.do_create_bakeoff).
BAKEOFF_CREATED = "bakeoff.created"
# Recreated from an organisers' archive (leaderboard.archive.import_archive, docs/archives.md).
BAKEOFF_IMPORTED = "bakeoff.imported"
ANNOUNCEMENT_POSTED = "bakeoff.announcement"
CORPUS_ADDED = "corpus.added"
DOMAIN_LABELS_SET = "corpus.domain_labels"
LICENCE_ACCEPTED = "corpus.licence_accepted"
TRACK_ADDED = "track.added"
POST_BAKEOFF_OPENED = "track.post_bakeoff_opened"
POST_BAKEOFF_CLOSED = "track.post_bakeoff_closed"
DEVELOPMENT_SET_ADDED = "corpus.development_set"
INVITATION_SENT = "invitation.sent"
INVITATION_ACCEPTED = "invitation.accepted"
COMMITTEE_REQUESTED = "committee.requested"
COMMITTEE_FINISHED = "committee.finished"
# What organisers change through their pages (bakeoff.services.organising).
ORGANISER_ADDED = "organiser.added"
ORGANISER_REMOVED = "organiser.removed"
CORPUS_EDITED = "corpus.edited"
TRACK_EDITED = "track.edited"
SITE_EDITED = "site.edited"
REGISTRATION_ADDED = "registration.added"


def in_languages(message: StrOrPromise) -> dict[str, str]:
    """``message`` (lazy, translated when shown) in every language of the pages, for the detail
    ``IN_LANGUAGES``."""
    said = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            said[code] = str(message)
    return said


# For people: the organiser's page filters and labels entries by these (every action has one).
LABELS = {
    REGISTRATION_APPLIED: _("Registration applied for"),
    REGISTRATION_APPROVED: _("Registration approved"),
    REGISTRATION_REFUSED: _("Registration refused"),
    REGISTRATION_ADDED: _("Registrations added by an organiser"),
    RUN_ACCEPTED: _("Run accepted"),
    RUN_REFUSED: _("Upload refused"),
    RUN_SCORED: _("Run scored"),
    RUN_FAILED: _("Run failed"),
    RUN_REQUEUED: _("Run queued again"),
    RUN_WITHDRAWN: _("Run withdrawn"),
    RUN_WITHDRAWAL_REFUSED: _("Withdrawal refused"),
    RUN_RESCORED: _("Runs queued for re-scoring"),
    RUN_LATENESS_DECIDED: _("Lateness decided"),
    PAPER_ATTACHED: _("System paper attached"),
    TIMETABLE_CHANGED: _("Timetable changed"),
    GOLD_VERSION_ADDED: _("Gold version added"),
    CORRECTION_ACCEPTED: _("Gold correction accepted"),
    RESULTS_PUBLISHED: _("Results published"),
    ERRATUM_PUBLISHED: _("Erratum published"),
    RESULTS_FROZEN: _("Published results frozen as version 1"),
    RESULTS_WITHDRAWN: _("Publication withdrawn"),
    BAKEOFF_CREATED: _("Bakeoff created"),
    BAKEOFF_IMPORTED: _("Bakeoff imported from an archive"),
    BAKEOFF_OPENED: _("Bakeoff opened"),
    ANNOUNCEMENT_POSTED: _("Announcement posted"),
    CORPUS_ADDED: _("Corpus added"),
    CORPUS_EDITED: _("Corpus edited"),
    DOMAIN_LABELS_SET: _("Domain labels set"),
    DEVELOPMENT_SET_ADDED: _("Development set added"),
    LICENCE_ACCEPTED: _("Licence accepted"),
    TRACK_ADDED: _("Track added"),
    TRACK_EDITED: _("Track edited"),
    POST_BAKEOFF_OPENED: _("Track opened for post-bakeoff runs"),
    POST_BAKEOFF_CLOSED: _("Track closed for post-bakeoff runs"),
    SITE_EDITED: _("Site edited"),
    INVITATION_SENT: _("Invitation sent"),
    INVITATION_ACCEPTED: _("Invitation accepted"),
    ORGANISER_ADDED: _("Organiser added"),
    ORGANISER_REMOVED: _("Organiser removed"),
    COMMITTEE_REQUESTED: _("Committee requested"),
    COMMITTEE_FINISHED: _("Committee finished"),
}


def record(
    bakeoff: Bakeoff,
    action: str,
    subject: str | Subject,
    *,
    actor: Any = None,
    track: Track | None = None,
    site: Site | None = None,
    now: datetime | None = None,
    **details: Any,
) -> AuditEntry:
    """Append one entry. ``details`` must be what JSON can hold once dates become ISO strings
    (checksums, reasons, the old and new values of a change), and so must a subject's facts."""
    facts = subject if isinstance(subject, Subject) else Subject("")
    text = subject.english if isinstance(subject, Subject) else subject
    authenticated = actor is not None and getattr(actor, "is_authenticated", False)
    return AuditEntry.objects.create(
        bakeoff=bakeoff,
        at=now or clock.now(),
        action=action,
        actor=actor if authenticated else None,
        actor_label=actor.get_username() if authenticated else "",
        track=track,
        site=site,
        subject=text[:300],
        subject_code=facts.code,
        subject_params=_as_json(facts.params),
        details=_as_json(details),
    )


def _as_json(values: dict[str, Any]) -> Any:
    return json.loads(json.dumps(values, cls=DjangoJSONEncoder))


def record_run(
    submission: Submission,
    action: str,
    *,
    actor: Any = None,
    now: datetime | None = None,
    **details: Any,
) -> AuditEntry:
    """Append one entry about one run: its bakeoff, track, site, phase and number are filled in,
    the subject names the run as every run entry does."""
    track = submission.track
    return record(
        track.corpus.bakeoff,
        action,
        Subject(RUN, {"run": run_facts(submission), "track": track.name}),
        actor=actor,
        track=track,
        site=submission.site,
        now=now,
        phase=submission.phase,
        submission=submission.pk,
        **details,
    )
