"""Who may see and fetch what. Objects a user may not see answer 404, not 403."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404

from .errors import NotAllowed, NotReleased
from .models import (
    Bakeoff,
    Corpus,
    RegistrationStatus,
    Site,
    Submission,
    SubmissionKind,
)

User = AbstractBaseUser | AnonymousUser
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


def can_see_scores(user: User, submission: Submission, now: datetime) -> bool:
    bakeoff = submission.track.corpus.bakeoff
    if is_organiser(user, bakeoff) or bakeoff.is_published(now):
        return True
    return not bakeoff.hide_scores_until_publication
