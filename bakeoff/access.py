"""Who may see and fetch what: the platform's one visibility policy, used by the pages, the
exports and the API of every app. Objects a user may not see answer 404, not 403.

- The organiser sees every run and every score, with site names, at any time.
- Once the results are published, everyone sees every row of the results.
- Before that, a member of a participating site sees BASE, TOP and their own site's runs, with
  their scores unless the bakeoff hides scores until publication; anyone else sees only the list
  of tracks: no row, no plot, no export.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeAlias

from django.contrib.auth import models as auth
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .errors import NotAllowed, NotReleased
from .models import (
    Bakeoff,
    Corpus,
    RegistrationStatus,
    Site,
    Submission,
    SubmissionKind,
    Track,
)

# Account is a signed-in user (settings.AUTH_USER_MODEL: Django's own); User is whoever a request
# carries, signed in or not.
Account: TypeAlias = auth.User
User: TypeAlias = Account | AnonymousUser
DataKind = Literal["training_text", "training_words", "test_text", "gold"]


def is_organiser(user: User, bakeoff: Bakeoff) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return bakeoff.organisers.filter(pk=user.pk).exists()


def can_create_bakeoff(user: User) -> bool:
    """Platform staff, and anyone given the permission to add bakeoffs."""
    return user.is_authenticated and (
        getattr(user, "is_staff", False) or user.has_perm("bakeoff.add_bakeoff")
    )


def sites_of(user: User, bakeoff: Bakeoff) -> QuerySet[Site]:
    if not user.is_authenticated:
        return Site.objects.none()
    return Site.objects.filter(bakeoff=bakeoff, members__pk=user.pk)


def is_registered_for_corpus(user: User, corpus: Corpus) -> bool:
    return (
        sites_of(user, corpus.bakeoff)
        .filter(
            registrations__track__corpus=corpus,
            registrations__status=RegistrationStatus.APPROVED,
        )
        .exists()
    )


def check_can_download(user: User, corpus: Corpus, kind: DataKind, now: datetime) -> None:
    """Organisers fetch anything; a participant what is released, for registered tracks only."""
    bakeoff = corpus.bakeoff
    if is_organiser(user, bakeoff):
        return
    if not is_registered_for_corpus(user, corpus):
        raise NotAllowed("Only sites registered for a track of this corpus may download its data.")
    if kind == "gold":
        if not bakeoff.is_published(now):
            raise NotReleased("The gold standard is released with the results.")
    elif kind == "test_text":
        if now < bakeoff.test_released:
            raise NotReleased("The test data is not released yet.")
    elif now < bakeoff.training_released:
        raise NotReleased("The training data is not released yet.")


def visible_submissions(user: User, bakeoff: Bakeoff, now: datetime) -> QuerySet[Submission]:
    """Organisers see every run; others their own sites' runs, BASE and TOP."""
    runs = Submission.objects.filter(track__corpus__bakeoff=bakeoff)
    if is_organiser(user, bakeoff):
        return runs
    own = Q(site__members__pk=user.pk) if user.is_authenticated else Q(pk__in=[])
    return runs.filter(own | ~Q(kind=SubmissionKind.RUN)).distinct()


def submission_for(user: User, pk: int, now: datetime) -> Submission:
    """A submission the user may see, or 404."""
    submission = (
        Submission.objects.select_related("track__corpus__bakeoff", "site").filter(pk=pk).first()
    )
    if submission is None:
        raise Http404("No such submission.")
    bakeoff = submission.track.corpus.bakeoff
    if not visible_submissions(user, bakeoff, now).filter(pk=pk).exists():
        raise Http404("No such submission.")
    return submission


@dataclass(frozen=True)
class Viewer:
    """What one user may see of one bakeoff's runs and results, at one instant."""

    organiser: bool
    published: bool
    site_ids: frozenset[int] = frozenset()
    hide_own: bool = False  # the bakeoff hides a site's own scores until publication

    @property
    def participant(self) -> bool:
        return bool(self.site_ids)

    @property
    def sees_all(self) -> bool:
        return self.organiser or self.published

    @property
    def sees_rows(self) -> bool:
        """Anything of the results beyond the list of tracks."""
        return self.sees_all or self.participant

    @property
    def sees_scores(self) -> bool:
        """Whether the runs this user may see are shown with their scores."""
        return self.organiser or not self.hide_own

    def sees_site(self, site_id: int | None) -> bool:
        """Whether the results show this site's runs (None: BASE and TOP)."""
        if self.sees_all:
            return True
        if site_id is None:
            return self.participant
        return site_id in self.site_ids and not self.hide_own


def viewer_for(user: User, bakeoff: Bakeoff, now: datetime) -> Viewer:
    published = bakeoff.is_published(now)
    return Viewer(
        organiser=is_organiser(user, bakeoff),
        published=published,
        site_ids=frozenset(sites_of(user, bakeoff).values_list("pk", flat=True)),
        hide_own=bakeoff.hide_scores_until_publication and not published,
    )


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a ``login_required`` view: its user is signed in."""

    user: Account


def bakeoff_or_404(slug: str) -> Bakeoff:
    return get_object_or_404(Bakeoff, slug=slug)


def organised_or_404(request: HttpRequest, slug: str) -> Bakeoff:
    """A bakeoff the request's user organises, or 404."""
    bakeoff = bakeoff_or_404(slug)
    if not is_organiser(request.user, bakeoff):
        raise Http404("No such bakeoff among yours.")
    return bakeoff


def corpus_or_404(bakeoff: Bakeoff, abbreviation: str) -> Corpus:
    return get_object_or_404(Corpus, bakeoff=bakeoff, abbreviation__iexact=abbreviation)


def track_or_404(bakeoff: Bakeoff, slug: str) -> Track:
    return get_object_or_404(
        Track.objects.select_related("corpus"), corpus__bakeoff=bakeoff, slug=slug
    )
