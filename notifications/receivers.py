"""What the notifications app does when something happens: mail the people it concerns.

Connected in ``NotificationsConfig.ready``. Each receiver runs inside the transaction that made
the change and records its mails there; they are sent after the commit.
"""

from __future__ import annotations

from bakeoff import sections as page_sections

from . import sections


def connect() -> None:
    page_sections.add("bakeoff.detail.organiser", sections.organiser_link)
    page_sections.add("bakeoff.account", sections.account_preferences)
