"""The Django admin: organisers see their own bakeoffs' objects only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User

from bakeoff.models import Corpus
from tests.factories import make_bakeoff, make_corpus, make_user
from tests.hints import ClientFor

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_organiser(organiser: User) -> User:
    organiser.user_permissions.set(Permission.objects.filter(content_type__app_label="bakeoff"))
    return organiser


def test_an_organiser_sees_their_corpora_in_the_admin(
    client_for: ClientFor, staff_organiser: User, corpus: Corpus
) -> None:
    page = client_for(staff_organiser).get("/admin/bakeoff/corpus/").content.decode()
    assert "PK corpus" in page


def test_an_organiser_does_not_see_another_bakeoffs_corpora(
    client_for: ClientFor, staff_organiser: User
) -> None:
    other = make_bakeoff(slug="other", organiser=make_user("someone-else"))
    make_corpus(other, abbreviation="XYZ")
    page = client_for(staff_organiser).get("/admin/bakeoff/corpus/").content.decode()
    assert "XYZ corpus" not in page


def test_a_participant_cannot_open_the_admin(client_for: ClientFor, participant: User) -> None:
    assert client_for(participant).get("/admin/bakeoff/submission/").status_code == 302


def test_the_submission_status_is_read_only_in_the_admin(
    client_for: ClientFor, staff_organiser: User, corpus: Corpus
) -> None:
    first_track = corpus.tracks.first()
    assert first_track is not None
    base = first_track.submissions.first()
    assert base is not None
    page = client_for(staff_organiser).get(f"/admin/bakeoff/submission/{base.pk}/change/")
    assert page.status_code == 200
    assert 'name="status"' not in page.content.decode()
