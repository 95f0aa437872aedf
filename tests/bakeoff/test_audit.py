"""The audit trail is append-only: the application refuses to change an entry, and on PostgreSQL
the database refuses too, whoever asks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from bakeoff import audit
from bakeoff.models import AuditEntry, Bakeoff, Site, Track
from tests.factories import NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(bakeoff: Bakeoff, organiser: User, closed: Track, site: Site) -> AuditEntry:
    return audit.record(
        bakeoff,
        audit.REGISTRATION_APPROVED,
        f"{site.name} on {closed.slug}",
        actor=organiser,
        track=closed,
        site=site,
        now=NOW,
        decided_at=NOW,
    )


def test_an_entry_says_who_when_and_what(entry: AuditEntry, organiser: User) -> None:
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert stored.actor == organiser
    assert stored.actor_label == organiser.get_username()
    assert stored.at == NOW
    assert stored.action == "registration.approved"
    assert stored.details == {"decided_at": NOW.isoformat().replace("+00:00", "Z")}


def test_the_application_never_updates_an_entry(entry: AuditEntry) -> None:
    entry.subject = "something else"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        AuditEntry.objects.filter(pk=entry.pk).update(subject="something else")
    assert AuditEntry.objects.get(pk=entry.pk).subject != "something else"


def test_the_application_never_deletes_an_entry(entry: AuditEntry) -> None:
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.filter(pk=entry.pk).delete()
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_deleting_a_bakeoff_leaves_its_trail(entry: AuditEntry, bakeoff: Bakeoff) -> None:
    bakeoff.delete()
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger is PostgreSQL's")
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE bakeoff_auditentry SET subject = 'forged' WHERE id = %s",
        "DELETE FROM bakeoff_auditentry WHERE id = %s",
    ],
)
def test_postgresql_refuses_raw_changes(entry: AuditEntry, statement: str) -> None:
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement, [entry.pk])
    assert AuditEntry.objects.get(pk=entry.pk).subject == entry.subject
