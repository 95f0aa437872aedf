"""Organiser pages for what only the Django admin offered before (it is for superusers now):
the bakeoff's organisers, a corpus's description, a site's details and its registrations. Each
goes through a service that checks the object belongs to the organiser's bakeoff."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms.models import model_to_dict
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
from .form_page import form_page, refusal_shown_on, saved


@login_required
def organisers(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    form = OrganiserForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            with refusal_shown_on(form):
                added = services.do_add_organiser(
                    bakeoff, form.cleaned_data["account"], by=request.user
                )
                message = interpolate(
                    _("%(username)s now organises this bakeoff."), username=added.get_username()
                )
                return saved(request, message, "organisers", slug=bakeoff.slug)
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
    initial = model_to_dict(corpus, fields=list(CorpusEditForm.base_fields))
    form = CorpusEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            services.do_edit_corpus(corpus, by=request.user, **form.cleaned_data)
            return saved(
                request, _("Saved."), "corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation
            )
    title = _("Edit corpus %(corpus)s") % {"corpus": corpus.abbreviation}
    return form_page(request, form, title, 400 if form.is_bound else 200, bakeoff=bakeoff)


def _site(request: AuthenticatedHttpRequest, slug: str, site: int) -> Site:
    bakeoff = organised_or_404(request, slug)
    return get_object_or_404(Site.objects.select_related("bakeoff"), pk=site, bakeoff=bakeoff)


@login_required
def site_edit(request: AuthenticatedHttpRequest, slug: str, site: int) -> HttpResponse:
    the_site = _site(request, slug, site)
    bakeoff = the_site.bakeoff
    initial = model_to_dict(the_site, fields=list(SiteForm.base_fields))
    form = SiteForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            services.do_edit_site(the_site, by=request.user, **form.cleaned_data)
            return saved(request, _("Saved."), "participants", slug=bakeoff.slug)
    title = _("Edit site %(site)s") % {"site": the_site}
    return form_page(request, form, title, 400 if form.is_bound else 200, bakeoff=bakeoff)


@login_required
def site_register(request: AuthenticatedHttpRequest, slug: str, site: int) -> HttpResponse:
    the_site = _site(request, slug, site)
    bakeoff = the_site.bakeoff
    form = SiteRegistrationForm(request.POST or None, bakeoff=bakeoff)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            added = services.do_add_site_registrations(
                the_site,
                form.track_statements(),
                approve=form.cleaned_data["approve"],
                by=request.user,
            )
            names = ", ".join(registration.track.name for registration in added)
            message = interpolate(
                _("%(name)s registered for %(names)s."), name=the_site.name, names=names
            )
            return saved(request, message, "participants", slug=bakeoff.slug)
    title = _("Register %(site)s for tracks") % {"site": the_site}
    return form_page(request, form, title, 400 if form.is_bound else 200, bakeoff=bakeoff)


__all__ = ["corpus_edit", "organiser_remove", "organisers", "site_edit", "site_register"]
