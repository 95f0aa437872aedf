"""Registration rules (SIGHAN 2003 §6), approval and site codes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User

from bakeoff import services
from bakeoff.errors import RegistrationRefused
from bakeoff.models import Bakeoff, Corpus, RegistrationStatus, Site, Track
from tests.factories import NOW, make_corpus, make_user, track

pytestmark = pytest.mark.django_db


@pytest.fixture
def corpus(pinned_bakeoff: Bakeoff) -> Corpus:
    return make_corpus(pinned_bakeoff, institution="Peking University", now=NOW)


def register(
    bakeoff: Bakeoff,
    user: User,
    tracks: Mapping[Track, str],
    *,
    name: str = "Team A",
    institution: str = "Academia Sinica",
    now: datetime = NOW,
) -> Site:
    return services.do_register_site(
        bakeoff,
        user,
        name=name,
        institution=institution,
        country="TW",
        commercial_product=False,
        tracks=tracks,
        now=now,
    )


def test_it_registers_a_site_waiting_for_approval(
    pinned_bakeoff: Bakeoff, participant: User, corpus: Corpus
) -> None:
    site = register(pinned_bakeoff, participant, {track(corpus): ""})
    assert site.members.get() == participant
    assert site.registrations.get().status == RegistrationStatus.PENDING
    assert site.code == ""


def test_it_refuses_a_corpus_of_the_sites_own_institution(
    pinned_bakeoff: Bakeoff, participant: User, corpus: Corpus
) -> None:
    with pytest.raises(RegistrationRefused, match="own institution"):
        register(
            pinned_bakeoff, participant, {track(corpus): ""}, institution="  peking   UNIVERSITY "
        )


def test_it_requires_a_resources_statement_for_an_open_track(
    pinned_bakeoff: Bakeoff, participant: User, corpus: Corpus
) -> None:
    with pytest.raises(RegistrationRefused, match="resources"):
        register(pinned_bakeoff, participant, {track(corpus, "open"): "  "})


def test_it_accepts_an_open_track_with_a_statement(
    pinned_bakeoff: Bakeoff, participant: User, corpus: Corpus
) -> None:
    site = register(pinned_bakeoff, participant, {track(corpus, "open"): "HowNet"})
    assert site.registrations.get().resources_statement == "HowNet"


def test_it_refuses_registration_after_it_closes(
    pinned_bakeoff: Bakeoff, participant: User, corpus: Corpus
) -> None:
    late = pinned_bakeoff.registration_closes + timedelta(seconds=1)
    with pytest.raises(RegistrationRefused, match="closed"):
        register(pinned_bakeoff, participant, {track(corpus): ""}, now=late)


def test_it_refuses_a_duplicate_site_name(
    pinned_bakeoff: Bakeoff, participant: User, outsider: User, corpus: Corpus
) -> None:
    register(pinned_bakeoff, participant, {track(corpus): ""})
    with pytest.raises(RegistrationRefused, match="already"):
        register(pinned_bakeoff, outsider, {track(corpus): ""}, name="team a")


def test_approval_assigns_site_codes_in_order(
    pinned_bakeoff: Bakeoff, organiser: User, corpus: Corpus
) -> None:
    sites = [
        register(pinned_bakeoff, make_user(f"u{i}"), {track(corpus): ""}, name=f"T{i}")
        for i in range(3)
    ]
    for site in reversed(sites):
        services.do_approve_registration(site.registrations.get(), by=organiser, now=NOW)
    for site in sites:
        site.refresh_from_db()
    assert [s.code for s in sites] == ["S03", "S02", "S01"]


def test_a_site_keeps_its_code_when_more_tracks_are_approved(
    pinned_bakeoff: Bakeoff, organiser: User, corpus: Corpus, participant: User
) -> None:
    site = register(pinned_bakeoff, participant, {track(corpus): "", track(corpus, "open"): "x"})
    for registration in site.registrations.all():
        services.do_approve_registration(registration, by=organiser, now=NOW)
    site.refresh_from_db()
    assert site.code == "S01"


def test_auto_approve_approves_at_once(
    pinned_bakeoff: Bakeoff, participant: User, corpus: Corpus
) -> None:
    pinned_bakeoff.auto_approve = True
    pinned_bakeoff.save()
    site = register(pinned_bakeoff, participant, {track(corpus): ""})
    assert site.registrations.get().status == RegistrationStatus.APPROVED
    site.refresh_from_db()
    assert site.code == "S01"


def test_a_refused_registration_cannot_be_approved_later(
    pinned_bakeoff: Bakeoff, organiser: User, participant: User, corpus: Corpus
) -> None:
    registration = register(pinned_bakeoff, participant, {track(corpus): ""}).registrations.get()
    services.do_refuse_registration(registration, by=organiser, reason="no paper", now=NOW)
    assert not services.do_approve_registration(registration, by=organiser, now=NOW)
    assert registration.status == RegistrationStatus.REFUSED


def test_a_user_belongs_to_one_site_per_bakeoff(
    pinned_bakeoff: Bakeoff, participant: User, corpus: Corpus
) -> None:
    register(pinned_bakeoff, participant, {track(corpus): ""})
    with pytest.raises(RegistrationRefused, match="already a member"):
        register(pinned_bakeoff, participant, {track(corpus): ""}, name="Second team")
