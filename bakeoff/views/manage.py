"""Organiser pages for what only the Django admin offered before (it is for superusers now):
the bakeoff's organisers, a corpus's description, a site's details and its registrations. Each
goes through a service that checks the object belongs to the organiser's bakeoff."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from bakeoff.errors import interpolate

from .. import services
from ..access import AuthenticatedHttpRequest, corpus_or_404, organised_or_404
from ..errors import Refused
from ..forms import CorpusEditForm, OrganiserForm, SiteForm, SiteRegistrationForm
from ..models import Site


@login_required
def organisers(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    form = OrganiserForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                added = services.do_add_organiser(
                    bakeoff, form.cleaned_data["account"], by=request.user
                )
            except Refused as refusal:
                form.add_error(None, refusal.message)
            else:
                messages.success(
                    request,
                    interpolate(
                        _("%(username)s now organises this bakeoff."), username=added.get_username()
                    ),
                )
                return redirect("organisers", slug=bakeoff.slug)
        status = 400
    return render(
        request,
        "bakeoff/organisers.html",
        {
            "bakeoff": bakeoff,
            "organisers": bakeoff.organisers.order_by("username"),
            "form": form,
        },
        status=status,
    )


@login_required
@require_POST
def organiser_remove(request: AuthenticatedHttpRequest, slug: str, user: int) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    member = get_object_or_404(bakeoff.organisers.all(), pk=user)
    try:
        services.do_remove_organiser(bakeoff, member, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(
            request,
            interpolate(
                _("%(username)s no longer organises this bakeoff."), username=member.get_username()
            ),
        )
    if member.pk == request.user.pk and not bakeoff.organisers.filter(pk=member.pk).exists():
        return redirect("bakeoff", slug=bakeoff.slug)
    return redirect("organisers", slug=bakeoff.slug)


@login_required
def corpus_edit(request: AuthenticatedHttpRequest, slug: str, abbreviation: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    form = CorpusEditForm(
        request.POST or None,
        initial={
            "name": corpus.name,
            "institution": corpus.institution,
            "standard": corpus.standard,
            "notes": corpus.notes,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.do_edit_corpus(corpus, by=request.user, **form.cleaned_data)
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)
    return render(
        request,
        "bakeoff/form.html",
        {"form": form, "title": f"Edit corpus {corpus.abbreviation}", "bakeoff": bakeoff},
        status=400 if form.is_bound else 200,
    )


def _site(request: AuthenticatedHttpRequest, slug: str, site: int) -> Site:
    bakeoff = organised_or_404(request, slug)
    return get_object_or_404(Site.objects.select_related("bakeoff"), pk=site, bakeoff=bakeoff)


@login_required
def site_edit(request: AuthenticatedHttpRequest, slug: str, site: int) -> HttpResponse:
    the_site = _site(request, slug, site)
    bakeoff = the_site.bakeoff
    form = SiteForm(
        request.POST or None,
        initial={
            "name": the_site.name,
            "institution": the_site.institution,
            "country": the_site.country,
            "contact_email": the_site.contact_email,
            "commercial_product": the_site.commercial_product,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.do_edit_site(the_site, by=request.user, **form.cleaned_data)
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("participants", slug=bakeoff.slug)
    return render(
        request,
        "bakeoff/form.html",
        {"form": form, "title": f"Edit site {the_site}", "bakeoff": bakeoff},
        status=400 if form.is_bound else 200,
    )


@login_required
def site_register(request: AuthenticatedHttpRequest, slug: str, site: int) -> HttpResponse:
    the_site = _site(request, slug, site)
    bakeoff = the_site.bakeoff
    form = SiteRegistrationForm(request.POST or None, bakeoff=bakeoff)
    if request.method == "POST" and form.is_valid():
        try:
            added = services.do_add_site_registrations(
                the_site,
                form.track_statements(),
                approve=form.cleaned_data["approve"],
                by=request.user,
            )
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            names = ", ".join(registration.track.name for registration in added)
            messages.success(
                request,
                interpolate(
                    _("%(name)s registered for %(names)s."), name=the_site.name, names=names
                ),
            )
            return redirect("participants", slug=bakeoff.slug)
    return render(
        request,
        "bakeoff/form.html",
        {"form": form, "title": f"Register {the_site} for tracks", "bakeoff": bakeoff},
        status=400 if form.is_bound else 200,
    )


__all__ = ["corpus_edit", "organiser_remove", "organisers", "site_edit", "site_register"]
