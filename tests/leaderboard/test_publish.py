"""Publishing is the organiser's explicit action, with a time, with names or codes.

The bakeoff with the participant's registered site is built once for the module; the runs and
publications, by each test that needs them."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from bakeoff.errors import Refused
from bakeoff.models import Bakeoff, Corpus, Site, Track
from leaderboard.models import Publication
from leaderboard.services import do_publish, do_withdraw_publication
from tests.factories import PERFECT_RUN, WORKED_RUN, close_submissions, rival, upload
from tests.hints import ClientFor, OnCommit
from tests.module_world import captured_on_commit, module_world, taken_from_world

from .registered_world import SHARED, registered_only

pytestmark = pytest.mark.django_db

PUBLISH = "/bakeoffs/b2026/results/publish/"

# Every test here starts from this world, and what it adds (runs, rivals, a publication) is
# rolled back (tests/module_world.py).
built, mine = module_world("publish", lambda: registered_only(captured_on_commit))
bakeoff, corpus, closed, site, participant, organiser = map(taken_from_world, SHARED)


def local(instant: datetime, bakeoff: Bakeoff) -> str:
    return timezone.localtime(instant, bakeoff.zone).strftime("%Y-%m-%dT%H:%M")


def test_the_organiser_publishes_with_names(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    close_submissions(bakeoff)
    at = timezone.now() - timedelta(minutes=1)
    answer = client_for(organiser).post(
        PUBLISH, {"at": local(at, bakeoff), "mode": "names", "confirmed": "on"}
    )
    assert answer.status_code == 302
    bakeoff.refresh_from_db()
    assert bakeoff.is_published(timezone.now())
    # entered in Asia/Shanghai, stored in UTC
    assert bakeoff.results_published is not None
    assert abs(bakeoff.results_published - at) < timedelta(minutes=1)
    assert Publication.objects.get(bakeoff=bakeoff).decided_by == organiser


def test_publication_may_be_scheduled_for_later(
    client_for: ClientFor, organiser: User, anonymous: Client, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    close_submissions(bakeoff)
    later = timezone.now() + timedelta(days=1)
    client_for(organiser).post(
        PUBLISH, {"at": local(later, bakeoff), "mode": "names", "confirmed": "on"}
    )
    bakeoff.refresh_from_db()
    assert bakeoff.results_published is not None
    assert not bakeoff.is_published(timezone.now())
    assert (
        "not published yet" in anonymous.get("/bakeoffs/b2026/tracks/pk-closed/").content.decode()
    )


def test_it_refuses_to_publish_before_the_deadline(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    answer = client_for(organiser).post(
        PUBLISH, {"at": local(timezone.now(), bakeoff), "mode": "names"}
    )
    assert answer.status_code == 200
    assert "before the submission deadline" in answer.content.decode()
    bakeoff.refresh_from_db()
    assert bakeoff.results_published is None


@pytest.mark.parametrize("persona", ["participant", "outsider"])
def test_only_the_organiser_may_publish(
    client_for: ClientFor,
    request: pytest.FixtureRequest,
    bakeoff: Bakeoff,
    site: Site,
    persona: str,
) -> None:
    close_submissions(bakeoff)
    user = request.getfixturevalue(persona)
    data = {"at": local(timezone.now(), bakeoff), "mode": "names"}
    assert client_for(user).get(PUBLISH).status_code == 404
    assert client_for(user).post(PUBLISH, data).status_code == 404
    bakeoff.refresh_from_db()
    assert bakeoff.results_published is None


def test_anonymous_is_sent_to_log_in(anonymous: Client, bakeoff: Bakeoff) -> None:
    assert anonymous.post(PUBLISH, {}).status_code == 302


def test_codes_follow_the_site_numbers_of_sites_with_runs(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track, on_commit: OnCommit
) -> None:
    upload(participant, closed, WORKED_RUN, on_commit)
    rival(bakeoff, closed, "Idle")  # registered, never ran
    user, second = rival(bakeoff, closed)
    upload(user, closed, PERFECT_RUN, on_commit)
    close_submissions(bakeoff)
    publication = do_publish(bakeoff, at=timezone.now(), mode="anonymised")
    assert publication.aliases == {str(site.pk): "P1", str(second.pk): "P2"}


def test_a_scheduled_publication_can_be_withdrawn(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=timezone.now() + timedelta(hours=2))
    client_for(organiser).post("/bakeoffs/b2026/results/withdraw/")
    bakeoff.refresh_from_db()
    assert bakeoff.results_published is None
    assert not Publication.objects.filter(bakeoff=bakeoff).exists()


def test_a_past_publication_cannot_be_withdrawn(bakeoff: Bakeoff, corpus: Corpus) -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(Refused, match="cannot be withdrawn"):
        do_withdraw_publication(bakeoff)


def test_only_the_organiser_may_withdraw(
    client_for: ClientFor, participant: User, bakeoff: Bakeoff, site: Site
) -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=timezone.now() + timedelta(hours=2))
    assert client_for(participant).post("/bakeoffs/b2026/results/withdraw/").status_code == 404


def test_a_past_publication_cannot_be_moved_later_nor_changed(
    bakeoff: Bakeoff, corpus: Corpus
) -> None:
    close_submissions(bakeoff)
    do_publish(bakeoff, at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(Refused, match="frozen; publish an erratum"):
        do_publish(bakeoff, at=timezone.now() + timedelta(days=1))
    assert bakeoff.results_published is not None
    with pytest.raises(Refused, match="frozen; publish an erratum"):
        do_publish(bakeoff, at=bakeoff.results_published, mode="anonymised")
    assert not Publication.objects.get(bakeoff=bakeoff).anonymised


def test_the_public_archive_waits_for_publication(bakeoff: Bakeoff) -> None:
    with pytest.raises(CommandError, match="not published"):
        call_command("export_bakeoff", bakeoff.slug, "/nonexistent/x.zip", "--public")


def test_nothing_whole_before_publication(
    bakeoff: Bakeoff, organiser: User, client_for: ClientFor
) -> None:
    paths = [
        "/bakeoffs/b2026/archive-public.zip",
        "/bakeoffs/b2026/results/release.zip",
        "/bakeoffs/b2026/results/all-tracks.csv",
        "/bakeoffs/b2026/results/all-tracks.json",
        "/bakeoffs/b2026/results/all-tracks.tex",
    ]
    for path in paths:
        assert client_for(organiser).get(path).status_code == 404, path
        assert client_for(None).get(path).status_code in (302, 404), path
    assert client_for(organiser).get("/bakeoffs/b2026/archive.zip").status_code == 200
