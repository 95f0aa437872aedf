"""The organisers read a bakeoff's audit trail, filter it and download it as inert CSV; from it
the whole life of a disputed run can be reconstructed. Nobody else reads it."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bakeoff import audit, services
from bakeoff.errors import IdenticalRun
from bakeoff.models import AuditEntry, Bakeoff, Site, Track
from bakeoff.views.audit_trail import inert
from tests.factories import GOLD, NOW, PERFECT_RUN, WORKED_RUN, make_user
from tests.hints import ClientFor, OnCommit

pytestmark = pytest.mark.django_db

PAGE = "/bakeoffs/b2026/audit/"
CSV = "/bakeoffs/b2026/audit.csv"


def rows(client: Client, query: str = "") -> list[dict[str, str]]:
    answer = client.get(CSV + query)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(answer.content.decode())))


def concerns(row: dict[str, str], pk: int) -> bool:
    details = json.loads(row["details"])
    return bool(details.get("submission") == pk or pk in details.get("submissions", []))


def test_non_organisers_cannot_read_it(
    client_for: ClientFor, participant: User, site: Site, anonymous: Client
) -> None:
    for url in (PAGE, CSV):
        assert client_for(participant).get(url).status_code == 404
        assert anonymous.get(url).status_code == 302  # to the login page
        assert "/accounts/login/" in anonymous.get(url)["Location"]


def test_another_bakeoffs_organiser_cannot_read_it(client_for: ClientFor, bakeoff: Bakeoff) -> None:
    other = make_user("oscar")
    assert client_for(other).get(PAGE).status_code == 404


def test_the_life_of_a_disputed_run_can_be_reconstructed(
    client_for: ClientFor,
    organiser: User,
    participant: User,
    site: Site,
    closed: Track,
    on_commit: OnCommit,
) -> None:
    """Accepted (checksum, receipt time), scored, re-scored on a corrected gold, scored again,
    an identical upload refused, withdrawn: every step is in the trail, in order."""
    with on_commit():
        run = services.submit_run(participant, closed, PERFECT_RUN.encode())
    with pytest.raises(IdenticalRun):
        services.submit_run(participant, closed, PERFECT_RUN.encode())
    corrected = GOLD.replace("今天 天气", "今天天气")
    with on_commit():
        services.do_add_gold_version(
            closed.corpus, corrected.encode(), user=organiser, note="one word merged"
        )
    with on_commit():
        services.do_withdraw_run(run, user=participant, reason="wrong model")
    trail = [
        r
        for r in rows(client_for(organiser))
        if r["site"] == site.code or r["action"].startswith(("gold", "run.rescored"))
    ]
    mine = [r["action"] for r in trail if concerns(r, run.pk)]
    assert mine == [
        audit.RUN_ACCEPTED,
        audit.RUN_SCORED,
        audit.RUN_RESCORED,
        audit.RUN_SCORED,
        audit.RUN_WITHDRAWN,
    ]
    actions = [r["action"] for r in trail]
    refused = actions.index(audit.RUN_REFUSED)
    assert actions.index(audit.GOLD_VERSION_ADDED, refused) > refused  # v2 came after it
    entries = AuditEntry.objects.filter(details__submission=run.pk, action=audit.RUN_SCORED)
    first, second = entries.order_by("at", "id")
    assert (first.details["gold_version"], second.details["gold_version"]) == (1, 2)
    assert first.details["f"] == 1.0 and second.details["f"] < 1.0
    assert first.details["run_checksum"] == run.checksum
    accepted = AuditEntry.objects.get(action=audit.RUN_ACCEPTED)
    assert accepted.details["checksum"] == run.checksum
    assert accepted.actor == participant
    gold = AuditEntry.objects.get(action=audit.GOLD_VERSION_ADDED, details__gold_version=2)
    assert gold.actor == organiser and gold.details["note"] == "one word merged"


def test_the_page_filters_by_action_track_site_and_date(
    client_for: ClientFor,
    organiser: User,
    participant: User,
    site: Site,
    closed: Track,
    bakeoff: Bakeoff,
) -> None:
    services.submit_run(participant, closed, PERFECT_RUN.encode())
    services.submit_run(participant, closed, WORKED_RUN.encode())
    client = client_for(organiser)
    page = client.get(PAGE).content.decode()
    assert "Run accepted" in page and "Registration approved" in page
    accepted = rows(client, f"?action={audit.RUN_ACCEPTED}")
    assert [r["action"] for r in accepted] == [audit.RUN_ACCEPTED] * 2
    assert {r["site"] for r in rows(client, f"?site={site.pk}")} == {site.code}
    assert {r["track"] for r in rows(client, f"?track={closed.pk}")} == {"pk-closed"}
    assert rows(client, f"?until={(NOW - timedelta(days=400)).date()}") == []
    assert len(rows(client, f"?action={audit.RUN_ACCEPTED}&since=2000-01-01")) == 2
    filtered = client.get(PAGE + f"?action={audit.RUN_ACCEPTED}").content.decode()
    assert "Registration approved" not in filtered.split("<tbody>")[1]


def test_the_csv_is_inert(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, closed: Track
) -> None:
    mallory = make_user("=HYPERLINK(1)")
    site = Site.objects.create(
        bakeoff=bakeoff,
        name="+cmd|' /C calc'!A0",
        institution="-2+3",
        country="CN",
        commercial_product=False,
    )
    site.members.add(mallory)
    audit.record(bakeoff, audit.RUN_REFUSED, "@SUM(1)", actor=mallory, site=site, now=NOW)
    (row,) = rows(client_for(organiser), f"?action={audit.RUN_REFUSED}")
    assert row["actor"] == "'=HYPERLINK(1)"
    assert row["site"] == "'+cmd|' /C calc'!A0"
    assert row["subject"] == "'@SUM(1)"
    for cell in row.values():
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_cell_that_could_start_a_formula_is_quoted(start: str) -> None:
    assert inert(start + "1") == "'" + start + "1"
    assert inert("a" + start) == "a" + start
