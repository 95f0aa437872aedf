"""Every kind of mail the platform sends: its label, and the preference that turns it off.

Receipts, decisions, account and password mails cannot be turned off; reminders, scored runs and
announcements can (``MailPreference``), on the account page or by the link in each such mail.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

PREFERENCES = {
    "reminders": _("Deadline reminders"),
    "scored": _("A run was scored"),
    "announcements": _("Announcements of the organisers"),
}


@dataclass(frozen=True)
class Kind:
    label: StrOrPromise
    preference: str = ""  # the MailPreference field that turns it off; "" for none
    secret: bool = False  # the body holds a key (reset, verification, invitation): not kept


KINDS: dict[str, Kind] = {
    "account": Kind(_("Account: address verification, password, e-mail change"), secret=True),
    "invitation": Kind(_("Invitation"), secret=True),
    "registration_received": Kind(_("Registration received")),
    "registration_waiting": Kind(_("Registration waiting for a decision (organisers)")),
    "registration_approved": Kind(_("Registration approved")),
    "registration_refused": Kind(_("Registration refused")),
    "run_received": Kind(_("Run received (receipt)")),
    "run_scored": Kind(_("Run scored"), preference="scored"),
    "run_failed": Kind(_("Run failed")),
    "run_failed_internal": Kind(_("Run failed for an internal reason (organisers)")),
    "data_released": Kind(_("Data released")),
    "timetable_changed": Kind(_("Timetable changed")),
    "deadline_reminder": Kind(_("Deadline reminder"), preference="reminders"),
    "results_published": Kind(_("Results published")),
    "committee_finished": Kind(_("Committee finished or failed (organisers)")),
    "announcement": Kind(_("Announcement"), preference="announcements"),
}
