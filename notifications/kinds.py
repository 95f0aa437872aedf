"""Every kind of mail the platform sends: its label, and the preference that turns it off.

Receipts, decisions, account and password mails cannot be turned off; reminders, scored runs and
announcements can (``MailPreference``), on the account page or by the link in each such mail.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFERENCES = {
    "reminders": "Deadline reminders",
    "scored": "A run was scored",
    "announcements": "Announcements of the organisers",
}


@dataclass(frozen=True)
class Kind:
    label: str
    preference: str = ""  # the MailPreference field that turns it off; "" for none
    secret: bool = False  # the body holds a key (reset, verification, invitation): not kept


KINDS: dict[str, Kind] = {
    "account": Kind("Account: address verification, password, e-mail change", secret=True),
    "invitation": Kind("Invitation", secret=True),
    "registration_received": Kind("Registration received"),
    "registration_waiting": Kind("Registration waiting for a decision (organisers)"),
    "registration_approved": Kind("Registration approved"),
    "registration_refused": Kind("Registration refused"),
    "run_received": Kind("Run received (receipt)"),
    "run_scored": Kind("Run scored", preference="scored"),
    "run_failed": Kind("Run failed"),
    "run_failed_internal": Kind("Run failed for an internal reason (organisers)"),
    "data_released": Kind("Data released"),
    "deadline_reminder": Kind("Deadline reminder", preference="reminders"),
    "results_published": Kind("Results published"),
    "committee_finished": Kind("Committee finished or failed (organisers)"),
    "announcement": Kind("Announcement", preference="announcements"),
}
