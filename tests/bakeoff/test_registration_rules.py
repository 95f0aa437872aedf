"""One rule set for every registration (issue 22): a site's member registering a new site or more
tracks, and an organiser registering a site, are refused by the same rules in the same words;
what the organiser's entrance changes is the table ``ENTRANCES``, and nothing else."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone, translation

from bakeoff import services
from bakeoff.errors import RegistrationRefused
from bakeoff.models import Bakeoff, Corpus, RegistrationStatus, Site, Track
from bakeoff.services import organising, registration
from bakeoff.services.registration import Entrance, RegistrationTerms
from tests.factories import make_bakeoff, make_corpus, make_site, make_user, publish, track
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db

Tracks = Mapping[Track, str]


@dataclass
class World:
    bakeoff: Bakeoff
    corpus: Corpus
    organiser: User


@pytest.fixture
def world(bakeoff: Bakeoff, corpus: Corpus, organiser: User) -> World:
    return World(bakeoff, corpus, organiser)


def by_a_new_site(world: World, tracks: Tracks, institution: str) -> None:
    services.do_register_site(
        world.bakeoff,
        make_user("newcomer"),
        name="Team A",
        institution=institution,
        country="CN",
        commercial_product=False,
        tracks=tracks,
    )


def by_a_member_for_more_tracks(world: World, tracks: Tracks, institution: str) -> None:
    site = make_site(world.bakeoff, make_user("member"), [], institution=institution)
    services.do_add_registrations(site, tracks, by=site.members.get())


def by_an_organiser(world: World, tracks: Tracks, institution: str) -> None:
    site = make_site(world.bakeoff, make_user("member"), [], institution=institution)
    services.do_add_site_registrations(site, tracks, approve=True, by=world.organiser)


PATHS = [by_a_new_site, by_a_member_for_more_tracks, by_an_organiser]


def closed_track(world: World) -> Tracks:
    return {track(world.corpus): ""}


def no_track(world: World) -> Tracks:
    return {}


def another_bakeoffs_track(world: World) -> Tracks:
    other = make_bakeoff(slug="other", organiser=make_user("oscar"))
    return {track(make_corpus(other, abbreviation="MSR")): ""}


def open_track_without_statement(world: World) -> Tracks:
    return {track(world.corpus): "", track(world.corpus, "open"): "   "}


def after_publication_a_track_not_open(world: World) -> Tracks:
    publish(world.bakeoff)
    return {track(world.corpus): ""}


RULES: list[tuple[Callable[[World], Tracks], str, str]] = [
    (no_track, "Somewhere University", "Choose at least one track."),
    (another_bakeoffs_track, "Somewhere University", "The track MSRc is not part of this bakeoff."),
    (
        closed_track,
        " peking   UNIVERSITY",
        "Team A may not register for PKc: its corpus comes from the site's own institution "
        "(Peking University).",
    ),
    (
        open_track_without_statement,
        "Somewhere University",
        "The open track PKo needs a statement of the extra resources the site's system uses.",
    ),
    (
        after_publication_a_track_not_open,
        "Somewhere University",
        "After publication a site may register only for tracks open for post-bakeoff runs, and "
        "these are not: PKc.",
    ),
]


@pytest.mark.parametrize(("tracks", "institution", "words"), RULES)
@pytest.mark.parametrize("path", PATHS)
def test_each_rule_is_refused_on_every_path_in_the_same_words(
    world: World,
    path: Callable[[World, Tracks, str], None],
    tracks: Callable[[World], Tracks],
    institution: str,
    words: str,
) -> None:
    with pytest.raises(RegistrationRefused) as refused:
        path(world, tracks(world), institution)
    assert refused.value.detail == words
    assert not world.bakeoff.sites.filter(registrations__isnull=False).exists()


def test_every_entrance_has_its_row() -> None:
    assert set(services.ENTRANCES) == set(Entrance)


# -- what the organiser's entrance changes, and only that ---------------------------------------


def close_registration(bakeoff: Bakeoff) -> None:
    bakeoff.registration_closes = timezone.now() - timedelta(minutes=1)
    bakeoff.save(update_fields=["registration_closes"])


@pytest.mark.parametrize("path", [by_a_new_site, by_a_member_for_more_tracks])
def test_a_site_registers_only_while_registration_is_open(
    world: World, path: Callable[[World, Tracks, str], None]
) -> None:
    close_registration(world.bakeoff)
    with pytest.raises(RegistrationRefused) as refused:
        path(world, closed_track(world), "Somewhere University")
    assert refused.value.detail == "Registration for this bakeoff is closed."


def test_an_organiser_registers_a_site_after_registration_closed(world: World) -> None:
    close_registration(world.bakeoff)
    by_an_organiser(world, closed_track(world), "Somewhere University")
    assert world.bakeoff.sites.get().registrations.get().status == RegistrationStatus.APPROVED


def test_an_organisers_registration_waits_unless_approved_even_if_the_bakeoff_approves_at_once(
    world: World, organiser: User
) -> None:
    world.bakeoff.auto_approve = True
    world.bakeoff.save(update_fields=["auto_approve"])
    site = make_site(world.bakeoff, make_user("sam"), [], name="Late comers")
    (added,) = services.do_add_site_registrations(
        site, closed_track(world), approve=False, by=organiser
    )
    assert added.status == RegistrationStatus.PENDING


def test_an_organiser_may_not_register_a_site_for_a_track_it_asked_for(
    world: World, organiser: User
) -> None:
    site = make_site(world.bakeoff, make_user("sam"), [track(world.corpus)], approved=False)
    services.do_refuse_registration(site.registrations.get(), by=organiser, reason="no paper")
    with pytest.raises(RegistrationRefused) as refused:
        services.do_add_site_registrations(site, closed_track(world), approve=True, by=organiser)
    assert refused.value.detail == "Team A is already registered for PKc."
    # the site's own entrance asks again
    changes = services.do_add_registrations(site, closed_track(world), by=site.members.get())
    assert [r.track for r in changes.reapplied] == [track(world.corpus)]


def test_a_registration_an_organiser_adds_after_publication_is_for_post_bakeoff_runs(
    world: World, organiser: User
) -> None:
    publish(world.bakeoff)
    closed = track(world.corpus)
    closed.post_bakeoff_open = True
    closed.save(update_fields=["post_bakeoff_open"])
    site = make_site(world.bakeoff, make_user("sam"), [], name="Late comers")
    (added,) = services.do_add_site_registrations(site, {closed: ""}, approve=False, by=organiser)
    assert added.post_bakeoff is True
    # a site's own, at the same moment, is approved at once (the rules approve after publication)
    mine = make_site(world.bakeoff, make_user("nina"), [], name="Mine")
    changes = services.do_add_registrations(mine, {closed: ""}, by=mine.members.get())
    assert [(r.post_bakeoff, r.status) for r in changes.new] == [(True, "approved")]


# -- the pages show the rules' words ------------------------------------------------------------


def test_the_pages_of_both_entrances_show_the_same_refusal(
    client_for: ClientFor, world: World, participant: User, organiser: User
) -> None:
    words = "The open track PKo needs a statement of the extra resources the site&#x27;s system"
    open_track = track(world.corpus, "open")
    page = client_for(participant).post(
        "/bakeoffs/b2026/register/",
        {
            "name": "Team A",
            "institution": "Fudan",
            "country": "CN",
            "commercial_product": "no",
            "tracks": [open_track.pk],
        },
    )
    assert words in page.content.decode()
    site = make_site(world.bakeoff, make_user("sam"), [], name="Late comers")
    organiser_page = client_for(organiser).post(
        f"/bakeoffs/b2026/participants/{site.pk}/register/", {"tracks": [open_track.pk]}
    )
    assert organiser_page.status_code == 400
    assert words in organiser_page.content.decode()
    assert not Site.objects.filter(registrations__isnull=False).exists()


def test_a_chinese_reader_reads_the_post_bakeoff_rule_in_chinese(
    client_for: ClientFor, world: World, organiser: User
) -> None:
    publish(world.bakeoff)
    site = make_site(world.bakeoff, make_user("sam"), [], name="Late comers")
    page = client_for(organiser).post(
        f"/bakeoffs/b2026/participants/{site.pk}/register/",
        {"tracks": [track(world.corpus).pk]},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert page.status_code == 400
    assert "成绩公布后，参赛单位只能报名开放赛后提交的测试项，以下测试项未开放：PKc。" in (
        page.content.decode()
    )


def test_a_track_the_site_asks_for_while_an_organiser_adds_it_is_refused_not_a_500(
    world: World, organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = make_site(world.bakeoff, make_user("sam"), [])
    check = registration.check_registration

    def the_site_asks_after_the_check(*args: Any, **kwargs: Any) -> RegistrationTerms:
        terms = check(*args, **kwargs)
        services.do_add_registrations(site, closed_track(world), by=site.members.get())
        return terms

    monkeypatch.setattr(organising, "check_registration", the_site_asks_after_the_check)
    with pytest.raises(RegistrationRefused) as refused:
        services.do_add_site_registrations(site, closed_track(world), approve=True, by=organiser)
    assert refused.value.detail == "Team A is already registered for PKc."
    assert site.registrations.get().status == RegistrationStatus.PENDING


def test_the_tracks_a_refusal_names_are_listed_in_the_readers_language(
    world: World, organiser: User
) -> None:
    """The API and the audit trail read ``detail`` (English, "PKc, PKo"); a page shows ``message``
    in the reader's language, whose list separator is the enumeration comma (、)."""
    both = {track(world.corpus): "", track(world.corpus, "open"): "our own word list"}
    site = make_site(world.bakeoff, make_user("sam"), list(both), approved=False)
    with pytest.raises(RegistrationRefused) as refused:
        services.do_add_site_registrations(site, both, approve=True, by=organiser)
    assert refused.value.detail == "Team A is already registered for PKc, PKo."
    with translation.override("zh-hans"):
        shown = str(refused.value.message)
    assert "PKc、PKo" in shown and "PKc, PKo" not in shown
