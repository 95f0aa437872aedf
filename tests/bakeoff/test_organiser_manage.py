"""The organiser pages that replace what only the Django admin offered: organisers, a corpus's
description, a track's run limit, a site's details and registrations; each recorded."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from bakeoff import audit
from bakeoff.models import AuditEntry, Bakeoff, Corpus, RegistrationStatus, Site, Track
from tests.factories import make_bakeoff, make_corpus, make_site, make_user
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db


def test_an_organiser_registers_a_site_for_a_track_approved_at_once(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    site = make_site(bakeoff, make_user("sam"), [], name="Late comers")
    open_track = corpus.tracks.get(condition="open")
    answer = client_for(organiser).post(
        f"/bakeoffs/{bakeoff.slug}/participants/{site.pk}/register/",
        {"tracks": [open_track.pk], "resources_statement": "a lexicon", "approve": "on"},
    )
    assert answer.status_code == 302
    registration = site.registrations.get()
    assert registration.track == open_track
    assert registration.status == RegistrationStatus.APPROVED
    site.refresh_from_db()
    assert site.code == "S01"
    entry = AuditEntry.objects.get(action=audit.REGISTRATION_ADDED)
    assert entry.actor == organiser and entry.site == site


def test_an_open_track_still_needs_a_statement_and_another_bakeoffs_track_is_no_choice(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus
) -> None:
    site = make_site(bakeoff, make_user("sam"), [], name="Late comers")
    other = make_bakeoff(slug="other", organiser=make_user("oscar"))
    foreign = make_corpus(other, abbreviation="MSR").tracks.get(condition="closed")
    client = client_for(organiser)
    url = f"/bakeoffs/{bakeoff.slug}/participants/{site.pk}/register/"
    no_statement = client.post(url, {"tracks": [corpus.tracks.get(condition="open").pk]})
    assert no_statement.status_code == 400
    assert "statement" in no_statement.content.decode()
    assert client.post(url, {"tracks": [foreign.pk], "approve": "on"}).status_code == 400
    assert not site.registrations.exists()


def test_an_organiser_edits_a_site_a_corpus_and_a_tracks_runs(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus, site: Site
) -> None:
    client = client_for(organiser)
    answer = client.post(
        f"/bakeoffs/{bakeoff.slug}/participants/{site.pk}/edit/",
        {"name": "Team Alpha", "institution": "Lab", "country": "CN"},
    )
    assert answer.status_code == 302
    site.refresh_from_db()
    assert site.name == "Team Alpha"
    newline = client.post(
        f"/bakeoffs/{bakeoff.slug}/participants/{site.pk}/edit/",
        {"name": "Team\n\\immediate\\write18{id}", "institution": "Lab", "country": "CN"},
    )
    assert newline.status_code == 400
    assert (
        client.post(
            f"/bakeoffs/{bakeoff.slug}/corpora/PK/edit/",
            {"name": "Peking", "institution": "PKU", "standard": "PKU", "notes": "two\nlines"},
        ).status_code
        == 302
    )
    corpus.refresh_from_db()
    assert (corpus.name, corpus.notes) == ("Peking", "two\nlines")
    closed: Track = corpus.tracks.get(condition="closed")
    client.post(
        f"/bakeoffs/{bakeoff.slug}/corpora/PK/tracks/{closed.slug}/edit/",
        {"bucket_scheme": closed.bucket_scheme, "max_runs": 4},
    )
    closed.refresh_from_db()
    assert closed.max_runs == 4
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {audit.SITE_EDITED, audit.CORPUS_EDITED, audit.TRACK_EDITED} <= actions


def test_the_edit_pages_show_what_is_stored(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff, corpus: Corpus, site: Site
) -> None:
    Corpus.objects.filter(pk=corpus.pk).update(notes="Stored notes")
    Site.objects.filter(pk=site.pk).update(country="Stored country", commercial_product=True)
    client = client_for(organiser)
    corpus_page = client.get(f"/bakeoffs/{bakeoff.slug}/corpora/PK/edit/")
    assert corpus_page.status_code == 200
    assert "Stored notes" in corpus_page.content.decode()
    site_page = client.get(f"/bakeoffs/{bakeoff.slug}/participants/{site.pk}/edit/")
    assert site_page.status_code == 200
    assert site_page.context["form"].initial["country"] == "Stored country"
    assert 'value="Stored country"' in site_page.content.decode()
    assert site_page.context["form"].initial["commercial_product"] is True


def test_organisers_are_added_and_removed_but_never_the_last(
    client_for: ClientFor, organiser: User, bakeoff: Bakeoff
) -> None:
    helper = make_user("helga")
    client = client_for(organiser)
    url = f"/bakeoffs/{bakeoff.slug}/organisers/"
    refused = client.post(url, {"account": "nobody"})
    assert refused.status_code == 400
    assert "No single active account has the user name or address" in refused.content.decode()
    assert "already organises" in client.post(url, {"account": "olga"}).content.decode()
    assert client.post(url, {"account": "HELGA"}).status_code == 302
    assert set(bakeoff.organisers.all()) == {organiser, helper}
    client.post(f"{url}{helper.pk}/remove/")
    assert list(bakeoff.organisers.all()) == [organiser]
    client.post(f"{url}{organiser.pk}/remove/")
    assert list(bakeoff.organisers.all()) == [organiser]
    assert AuditEntry.objects.filter(action=audit.ORGANISER_REMOVED).count() == 1
