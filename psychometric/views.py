"""The organiser starts a committee from the corpus page; the page shows its progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from bakeoff.access import AuthenticatedHttpRequest, corpus_or_404, organised_or_404
from bakeoff.errors import Refused, interpolate
from scoring.psychometric.committee import DEFAULT_K

from . import services
from .forms import CommitteeForm


@login_required
@require_POST
def committee_start(
    request: AuthenticatedHttpRequest, slug: str, abbreviation: str
) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    form = CommitteeForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(f"{field}: {' '.join(map(str, e))}" for field, e in form.errors.items())
        messages.error(
            request, interpolate(_("The committee was not started (%(errors)s)."), errors=errors)
        )
    else:
        try:
            committee = services.do_start_committee(
                corpus,
                kind=form.cleaned_data["kind"],
                # a committee of runs has no K: one member per scored run
                k=form.cleaned_data["k"] or DEFAULT_K,
                seed=form.cleaned_data["seed"],
                by=request.user,
            )
        except Refused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(
                request,
                interpolate(
                    _(
                        "Committee %(number)s of gold version %(number2)s started; "
                        "refresh this page to follow it."
                    ),
                    number=committee.number,
                    number2=committee.gold_version.number,
                ),
            )
    return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)
