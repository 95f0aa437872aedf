"""One policy decides whether a user sees scores: pages, exports and the API all ask it."""

from __future__ import annotations

from itertools import product

import pytest
from django.contrib.auth.models import User

from bakeoff.access import Viewer, viewer_for
from bakeoff.models import Bakeoff, Site
from leaderboard import visibility

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("organiser", "published", "hidden"), product((False, True), repeat=3))
def test_scores_are_shown_to_the_organiser_after_publication_or_when_not_hidden(
    organiser: bool, published: bool, hidden: bool
) -> None:
    viewer = Viewer(organiser=organiser, published=published, hide_own=hidden and not published)
    assert viewer.sees_scores == (organiser or published or not hidden)


def test_the_leaderboard_adds_names_to_the_same_policy(
    participant: User, site: Site, bakeoff: Bakeoff
) -> None:
    bakeoff.hide_scores_until_publication = True
    bakeoff.save()
    now = bakeoff.test_released
    policy = viewer_for(participant, bakeoff, now)
    shown = visibility.viewer_for(participant, bakeoff, now)
    assert isinstance(shown, Viewer)
    assert (shown.organiser, shown.published, shown.site_ids, shown.hide_own) == (
        policy.organiser,
        policy.published,
        policy.site_ids,
        policy.hide_own,
    )
    assert policy.site_ids == {site.pk} and policy.hide_own and not policy.sees_scores
    assert not shown.sees_site(site.pk) and shown.sees_site(None)
