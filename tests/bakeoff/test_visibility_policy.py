"""One policy decides whether a user sees scores: pages, exports and the API all ask it."""

from __future__ import annotations

from itertools import product

import pytest
from django.contrib.auth.models import User

from bakeoff import services
from bakeoff.access import Viewer, viewer_for
from bakeoff.models import Bakeoff, Site, Track
from leaderboard import visibility
from leaderboard.models import TrackStanding
from tests.factories import make_site

pytestmark = pytest.mark.django_db


SITE, OTHER_SITE, TRACK, OTHER_TRACK = 1, 2, 10, 20


@pytest.mark.parametrize(
    ("organiser", "published", "hidden", "approved"), product((False, True), repeat=4)
)
def test_scores_are_shown_to_the_organiser_after_publication_or_to_approved_sites(
    organiser: bool, published: bool, hidden: bool, approved: bool
) -> None:
    viewer = Viewer(
        organiser=organiser,
        published=published,
        site_ids=frozenset({SITE}),
        hide_own=hidden and not published,
        approved=frozenset({(SITE, TRACK)} if approved else ()),
    )
    everything = organiser or published
    assert viewer.sees_row(TRACK, SITE) == (everything or (approved and not hidden))
    assert viewer.sees_row(TRACK, None) == (everything or approved)  # BASE and TOP
    assert viewer.sees_row(TRACK, OTHER_SITE) == everything
    assert viewer.sees_row(OTHER_TRACK, None) == everything
    assert viewer.sees_statistics == everything


def test_the_leaderboard_adds_names_to_the_same_policy(
    participant: User, site: Site, bakeoff: Bakeoff, closed: Track
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
    assert policy.site_ids == {site.pk} and policy.hide_own
    assert policy.approved == {(site.pk, closed.pk)} == shown.approved
    assert not shown.sees_row(closed.pk, site.pk) and shown.sees_row(closed.pk, None)


def test_a_site_sees_the_scores_of_the_tracks_it_is_approved_for_only(
    participant: User, bakeoff: Bakeoff, closed: Track
) -> None:
    opened = closed.corpus.tracks.get(condition="open")
    site = make_site(bakeoff, participant, [closed, opened], approved=False)
    services.do_approve_registration(site.registrations.get(track=closed), by=None)
    services.do_refuse_registration(
        site.registrations.get(track=opened), by=None, reason="no statement"
    )
    viewer = viewer_for(participant, bakeoff, bakeoff.test_released)
    assert viewer.participant and viewer.track_ids == {closed.pk}
    assert viewer.sees_row(closed.pk, None) and viewer.sees_row(closed.pk, site.pk)
    assert not viewer.sees_row(opened.pk, None) and not viewer.sees_row(opened.pk, site.pk)


def test_an_account_without_an_approved_registration_sees_no_score(
    participant: User, bakeoff: Bakeoff, closed: Track
) -> None:
    make_site(bakeoff, participant, [closed], approved=False)  # pending
    viewer = viewer_for(participant, bakeoff, bakeoff.test_released)
    assert viewer.participant and not viewer.sees_rows
    assert not viewer.sees_row(closed.pk, None)


def test_ranks_among_the_rows_shown_keep_ties_and_close_gaps() -> None:
    """Stored ranks 2, 2, 5 (ranks 1, 3 and 4 hidden) read 1, 1, 3 before publication."""
    rows = [TrackStanding(submission_id=pk, rank=rank) for pk, rank in ((7, 2), (8, 2), (9, 5))]
    rows.append(TrackStanding(submission_id=10, rank=None))  # BASE: never ranked
    sealed = visibility.Viewer(organiser=False, published=False, approved=frozenset({(1, 1)}))
    assert sealed.ranks(rows) == {7: 1, 8: 1, 9: 3}
    published = visibility.Viewer(organiser=False, published=True)
    assert published.ranks(rows) == {7: 2, 8: 2, 9: 5}
