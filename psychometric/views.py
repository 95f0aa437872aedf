"""The organiser starts a committee from the corpus page; the page shows its progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from bakeoff.access import AuthenticatedHttpRequest, corpus_or_404, organised_or_404
from bakeoff.errors import Refused

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
        messages.error(request, f"The committee was not started ({errors}).")
    else:
        try:
            committee = services.do_start_committee(
                corpus,
                kind=form.cleaned_data["kind"],
                k=form.cleaned_data["k"],
                seed=form.cleaned_data["seed"],
                by=request.user,
            )
        except Refused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(
                request,
                f"Committee {committee.number} of gold version {committee.gold_version.number} "
                "started; refresh this page to follow it.",
            )
    return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)
