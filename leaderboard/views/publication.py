"""The organisers' publication of the results: publish (or schedule), withdraw, and an erratum."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from bakeoff import clock
from bakeoff.access import AuthenticatedHttpRequest, organised_or_404
from bakeoff.errors import Refused, interpolate

from .. import services, versions
from ..forms import ErratumForm, PublishForm
from ..models import PublicationMode
from ..visibility import viewer_for
from .reading import change_labeller


@login_required
def publish(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The form, then a confirmation that shows what will become visible, then the publication."""
    bakeoff = organised_or_404(request, slug)
    now = clock.now()
    form = PublishForm(request.POST or None, bakeoff=bakeoff, now=now)
    if request.method == "POST" and form.is_valid():
        at, mode = form.cleaned_data["at"], form.cleaned_data["mode"]
        try:
            services.check_can_publish(bakeoff, at, now)
            if not form.cleaned_data["confirmed"]:
                return render(
                    request,
                    "leaderboard/publish_confirm.html",
                    {
                        "bakeoff": bakeoff,
                        "form": form,
                        "at": at,
                        "now": now,
                        "mode": mode,
                        "anonymised": mode == PublicationMode.ANONYMISED,
                        "preview": services.publication_preview(bakeoff, mode),
                    },
                )
            services.do_publish(bakeoff, at=at, mode=mode, by=request.user, now=now)
        except Refused as refusal:
            form.add_error("at", refusal.message)
        else:
            messages.success(
                request,
                _("Results published.")
                if bakeoff.is_published(now)
                else _("Results scheduled for publication."),
            )
            return redirect("leaderboard:results", slug=bakeoff.slug)
    return render(
        request,
        "leaderboard/publish.html",
        {"bakeoff": bakeoff, "form": form, "published": bakeoff.is_published(now)},
    )


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    try:
        services.do_withdraw_publication(bakeoff, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The scheduled publication is withdrawn."))
    return redirect("leaderboard:results", slug=bakeoff.slug)


@login_required
def erratum(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """What changed since the newest published version, and publishing it as an erratum."""
    bakeoff = organised_or_404(request, slug)
    now = clock.now()
    current, changes = services.pending_changes(bakeoff, now=now)
    if current is None:
        raise Http404("The results are not published: there is nothing to correct.")
    form = ErratumForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            version = services.do_publish_erratum(
                bakeoff, note=form.cleaned_data["note"], by=request.user, now=now
            )
        except Refused as refusal:
            form.add_error("note", refusal.message)
        else:
            messages.success(
                request,
                interpolate(
                    _("Erratum published as results version %(number)s."), number=version.number
                ),
            )
            return redirect("leaderboard:version", slug=bakeoff.slug, number=version.number)
    return render(
        request,
        "leaderboard/erratum.html",
        {
            "bakeoff": bakeoff,
            "form": form,
            "current": current,
            "changes": versions.described(
                changes, change_labeller(viewer_for(request.user, bakeoff, now))
            ),
        },
    )
