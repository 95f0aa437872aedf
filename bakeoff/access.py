"""Who may see and fetch what: the platform's one visibility policy, used by the pages, the
exports and the API of every app. Objects a user may not see answer 404, not 403.

- A draft bakeoff (not opened yet) is seen by its organisers only: to anyone else its pages,
  exports and API answer 404.
- The organiser sees every run and every score, with site names, at any time.
- Once the results are published, everyone sees every row of the results.
- Before that, the blind phase is sealed (docs/track-table.md#before-publication). On a track where
  their site's registration is approved, a member sees BASE, TOP and their own site's runs (these
  without scores when the bakeoff hides scores until publication), and nothing derived from the
  runs they may not see: ranks are counted among the rows shown, and no count of runs, ranking
  time or statistic over every system (attribute profile, Friedman test, balanced F) is shown.
  On any other track, and for anyone else (no site, a pending or refused registration, not signed
  in), only the list of tracks: no score, no row, no plot, no export.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeAlias

from django.contrib.auth import models as auth
from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

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


# Where a bakeoff read by ``bakeoff_track_or_404`` keeps whether its reader organises it: (the
# reader's pk, the answer), so that it is never taken for another user's.
_ORGANISED_BY = "_organised_by"


def is_organiser(user: User, bakeoff: Bakeoff) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    known = getattr(bakeoff, _ORGANISED_BY, None)
    if known is not None and known[0] == user.pk:
        return bool(known[1])
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
        raise NotAllowed(
            _("Only sites registered for a track of this corpus may download its data.")
        )
    if kind == "gold":
        if not bakeoff.is_published(now):
            raise NotReleased(_("The gold standard is released with the results."))
    elif kind == "test_text":
        if now < bakeoff.test_released:
            raise NotReleased(_("The test data is not released yet."))
    elif now < bakeoff.training_released:
        raise NotReleased(_("The training data is not released yet."))


def visible_submissions(
    user: User, bakeoff: Bakeoff, now: datetime, *, viewer: Viewer | None = None
) -> QuerySet[Submission]:
    """Organisers see every run; others their own sites' runs, and BASE and TOP of the tracks
    whose results they may see (``Viewer.sees_track``). Whether with scores is
    ``Viewer.sees_row``."""
    viewer = viewer or viewer_for(user, bakeoff, now)
    runs = Submission.objects.filter(track__corpus__bakeoff=bakeoff)
    if viewer.organiser:
        return runs
    if bakeoff.is_draft:
        return runs.none()
    references = ~Q(kind=SubmissionKind.RUN)
    if not viewer.published:
        references &= Q(track_id__in=viewer.track_ids)
    return runs.filter(Q(site_id__in=viewer.site_ids) | references)


def submission_for(user: User, pk: int, now: datetime) -> Submission:
    """A submission the user may see, or 404 (with its scores or not: ``Viewer.sees_row``)."""
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
    """What one user may see of one bakeoff's runs and results, at one instant.

    The one place that decides it: pages, exports, plots, the API and mail ask this, never the
    models. Before publication a participant's view is per track (``approved``).
    """

    organiser: bool
    published: bool
    site_ids: frozenset[int] = frozenset()
    hide_own: bool = False  # the bakeoff hides a site's own scores until publication
    # (site, track) of the user's sites' approved registrations
    approved: frozenset[tuple[int, int]] = frozenset()

    @property
    def participant(self) -> bool:
        """A member of a site of the bakeoff (whatever its registrations)."""
        return bool(self.site_ids)

    @property
    def sees_all(self) -> bool:
        return self.organiser or self.published

    @property
    def track_ids(self) -> frozenset[int]:
        """The tracks on which one of the user's sites is approved."""
        return frozenset(track for _site, track in self.approved)

    @property
    def sees_rows(self) -> bool:
        """Anything of the results beyond the list of tracks, on some track."""
        return self.sees_all or bool(self.approved)

    def sees_track(self, track_id: int) -> bool:
        """Anything of this track's results beyond its name: BASE and TOP at least."""
        return self.sees_all or track_id in self.track_ids

    def sees_row(self, track_id: int, site_id: int | None) -> bool:
        """Whether this run's scores are shown (site None: BASE and TOP)."""
        if self.sees_all:
            return True
        if track_id not in self.track_ids:
            return False
        if site_id is None:
            return True
        return (site_id, track_id) in self.approved and not self.hide_own

    @property
    def sees_statistics(self) -> bool:
        """What is computed over every run of a track: ranks among all runs, counts of runs and
        sites, when the track was last ranked, attribute profiles, Friedman tests, balanced F
        (a committee may be the runs themselves)."""
        return self.sees_all


PUBLIC = "public"
PARTICIPANT = "participant"
# ``?view=own``: the organiser's own view, named so that no preview carries into the link
# (bakeoff/previews.py); any value but the two above is the same
OWN = "own"
# the mark of a view that honours a preview (``previews.honours_preview``), and where the request
# keeps the preview it honours
HONOURS_PREVIEW = "honours_preview"
PREVIEW_OF_REQUEST = "bakeoff_preview"


@dataclass(frozen=True)
class Preview:
    """An organiser's page seen as another reader would see it (``?view=public``, or
    ``?view=participant&site=<pk>``): the pages decide as that reader, never as more. Made only by
    ``preview_for``, for an organiser of the bakeoff; ``site`` is the participant's site (None:
    the bakeoff has no site yet, and a participant without one sees what the public sees)."""

    kind: str
    site: Site | None = None
    # the bakeoff's sites, for the page's choice of another one
    sites: tuple[Site, ...] = ()

    @property
    def parameters(self) -> list[tuple[str, str]]:
        """The query parameters that ask for this preview."""
        if self.site is None:
            return [("view", self.kind)]
        return [("view", self.kind), ("site", str(self.site.pk))]


def preview_for(request: HttpRequest, bakeoff: Bakeoff) -> Preview | None:
    """The viewer class the request asks to see the page as, honoured for the bakeoff's
    organisers only: anyone else passing ``?view=`` gains nothing (None). Only a view marked by
    ``previews.honours_preview`` asks, so that the mark lists every page that honours one."""
    match = request.resolver_match
    if match is not None and not getattr(match.func, HONOURS_PREVIEW, False):
        raise TypeError(f"{match.view_name} reads ?view= without previews.honours_preview")
    found = getattr(request, PREVIEW_OF_REQUEST, None)
    if isinstance(found, Preview):
        return found  # asked again by another part of the same page
    kind = request.GET.get("view", "")
    if kind not in (PUBLIC, PARTICIPANT) or not is_organiser(request.user, bakeoff):
        return None
    sites = tuple(Site.objects.filter(bakeoff=bakeoff).order_by("number", "name", "pk"))
    if kind == PUBLIC:
        preview = Preview(PUBLIC, sites=sites)
    else:
        chosen = request.GET.get("site", "")
        site = next((s for s in sites if str(s.pk) == chosen), sites[0] if sites else None)
        preview = Preview(PARTICIPANT, site, sites)
    setattr(request, PREVIEW_OF_REQUEST, preview)
    return preview


def viewer_for(
    user: User, bakeoff: Bakeoff, now: datetime, *, preview: Preview | None = None
) -> Viewer:
    """What ``user`` may see of ``bakeoff`` at ``now``; with a ``preview`` (an organiser's,
    ``preview_for``), what the public or the previewed site's members may see: never an
    organiser's view, so never more than the organiser has."""
    published = bakeoff.is_published(now)
    organiser = is_organiser(user, bakeoff)
    if preview is not None and not organiser:
        preview = None  # only an organiser's page is seen as another reader's
    if preview is not None:
        organiser = False
        previewed = preview.site if preview.kind == PARTICIPANT else None
        sites = (
            Site.objects.filter(pk=previewed.pk, bakeoff=bakeoff)
            if previewed is not None
            else Site.objects.none()
        )
    elif user.is_authenticated:
        sites = Site.objects.filter(bakeoff=bakeoff, members__pk=user.pk)
    else:
        sites = Site.objects.none()
    # no order: the model's would join the bakeoff to sort what becomes sets
    memberships = list(
        sites.order_by().values_list("pk", "registrations__track_id", "registrations__status")
    )
    return Viewer(
        organiser=organiser,
        published=published,
        site_ids=frozenset(site for site, _track, _status in memberships),
        hide_own=bakeoff.hide_scores_until_publication and not published,
        approved=frozenset(
            (site, track)
            for site, track, status in memberships
            if track is not None and status == RegistrationStatus.APPROVED
        ),
    )


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a ``login_required`` view: its user is signed in."""

    user: Account


def bakeoff_or_404(slug: str, user: User | None = None) -> Bakeoff:
    """The bakeoff, or 404. A draft (not opened yet) is found only for its organisers: pass the
    request's user; without one, a draft is not found."""
    return visible_or_404(get_object_or_404(Bakeoff, slug=slug), user)


def visible_or_404(bakeoff: Bakeoff, user: User | None) -> Bakeoff:
    """The bakeoff, unless it is a draft and ``user`` is not one of its organisers (404)."""
    if bakeoff.is_draft and (user is None or not is_organiser(user, bakeoff)):
        raise Http404("No such bakeoff.")
    return bakeoff


def listed_bakeoffs(user: User) -> QuerySet[Bakeoff]:
    """The bakeoffs the home page lists: the open ones, and the drafts ``user`` organises."""
    opened = Q(opened_at__isnull=False)
    if not user.is_authenticated:
        return Bakeoff.objects.filter(opened)
    if getattr(user, "is_superuser", False):
        return Bakeoff.objects.all()
    return Bakeoff.objects.filter(opened | Q(organisers__pk=user.pk)).distinct()


def organised_or_404(request: HttpRequest, slug: str) -> Bakeoff:
    """A bakeoff the request's user organises, or 404."""
    bakeoff = get_object_or_404(Bakeoff, slug=slug)
    if not is_organiser(request.user, bakeoff):
        raise Http404("No such bakeoff among yours.")
    return bakeoff


def corpus_or_404(bakeoff: Bakeoff, abbreviation: str) -> Corpus:
    return get_object_or_404(Corpus, bakeoff=bakeoff, abbreviation__iexact=abbreviation)


def bakeoff_track_or_404(slug: str, track_slug: str, user: User) -> Track:
    """A track of a page's address with its corpus and bakeoff, or 404 (a draft bakeoff is found
    for its organisers only, as by ``bakeoff_or_404``): every page of a track finds it here. One
    query, which also reads the bakeoff's publication (``leaderboard.visibility.viewer_for``) and
    whether ``user`` organises it (``is_organiser``): a published page's reader costs few."""
    query = Track.objects.select_related("corpus__bakeoff__publication").filter(
        corpus__bakeoff__slug=slug, slug=track_slug
    )
    if user.is_authenticated:
        organisers = Bakeoff.organisers.through.objects.filter(
            bakeoff_id=OuterRef("corpus__bakeoff_id"), user_id=user.pk
        )
        query = query.annotate(organised_by_reader=Exists(organisers))
    try:
        track = query.get()
    except Track.DoesNotExist:
        raise Http404("No such track.") from None
    bakeoff = track.corpus.bakeoff
    if user.is_authenticated:
        setattr(bakeoff, _ORGANISED_BY, (user.pk, track.organised_by_reader))  # type: ignore[attr-defined]
    visible_or_404(bakeoff, user)
    return track
