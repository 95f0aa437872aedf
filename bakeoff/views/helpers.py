"""Lookups shared by the views: each answers 404 to anyone who may not see the object."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .. import access
from ..models import Bakeoff, Corpus, Track


def bakeoff_or_404(slug: str) -> Bakeoff:
    return get_object_or_404(Bakeoff, slug=slug)


def organised_or_404(request: HttpRequest, slug: str) -> Bakeoff:
    bakeoff = bakeoff_or_404(slug)
    if not access.is_organiser(request.user, bakeoff):
        raise Http404("No such bakeoff among yours.")
    return bakeoff


def corpus_or_404(bakeoff: Bakeoff, abbreviation: str) -> Corpus:
    return get_object_or_404(Corpus, bakeoff=bakeoff, abbreviation__iexact=abbreviation)


def track_or_404(bakeoff: Bakeoff, slug: str) -> Track:
    return get_object_or_404(
        Track.objects.select_related("corpus"), corpus__bakeoff=bakeoff, slug=slug
    )
