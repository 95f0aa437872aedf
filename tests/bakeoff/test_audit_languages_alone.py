"""The case of tests/bakeoff/test_audit_languages.py that starts from no run: an old entry must be
the only run entry on the page, so that the action's label it asserts is its own. That module's
tests read one world built once, with the site's runs (its ``built``): this one may not start
from it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff import audit
from bakeoff.models import AuditEntry, Bakeoff, Site, Track
from tests.hints import ClientFor

from .test_audit_languages import SIMPLIFIED, TRADITIONAL, read

pytestmark = pytest.mark.django_db


def test_an_old_entry_without_facts_shows_its_stored_text(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, closed: Track, site: Site
) -> None:
    old = AuditEntry.objects.create(
        bakeoff=bakeoff,
        at=bakeoff.submission_deadline,
        action=audit.RUN_ACCEPTED,
        track=closed,
        site=site,
        subject=f"{site.code} run 7 of {closed.name}",
        details={"run_number": 7},
    )
    for accept in (SIMPLIFIED, TRADITIONAL):
        page = read(client_for(organiser), accept)
        assert old.subject in page
        assert "结果已受理" in page or "結果已受理" in page  # the action's label is translated
