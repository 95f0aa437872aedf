"""People and registrations, for a bakeoff's organisers: the registrations and their decisions,
the organisers, a site's details and its registration for more tracks. Each goes through a
service that checks the object belongs to the organiser's bakeoff.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms.models import model_to_dict
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from bakeoff.errors import interpolate, listing

from .. import clock, services
from ..access import AuthenticatedHttpRequest, organised_or_404
from ..errors import Refused
from ..forms import DecisionForm, OrganiserForm, RefusalReasonForm, SiteForm, SiteRegistrationForm
from ..models import Registration, RegistrationStatus, Site
from .form_page import form_page, refusal_shown_on, saved


@login_required
def registrations(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    rows = (
        Registration.objects.filter(site__bakeoff=bakeoff)
        .select_related("site", "track__corpus")
        .order_by("status", "site__name", "track__slug")
    )
    return render(
        request,
        "bakeoff/registrations.html",
        {
            "bakeoff": bakeoff,
            "registrations": rows,
            "form": DecisionForm(),
        },
    )


@login_required
@require_POST
def registration_decide(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    registration = get_object_or_404(
        Registration, pk=pk, site__bakeoff=bakeoff, status=RegistrationStatus.PENDING
    )
    form = DecisionForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    else:
        now = clock.now()
        names = {"site": registration.site.name, "track": registration.track.name}
        if form.cleaned_data["decision"] == "approve":
            if services.do_approve_registration(registration, by=request.user, now=now):
                done = interpolate(_("Approved: %(site)s for %(track)s."), **names)
                messages.success(request, done)
        elif services.do_refuse_registration(
            registration, by=request.user, reason=form.cleaned_data["reason"], now=now
        ):
            done = interpolate(_("Refused: %(site)s for %(track)s."), **names)
            messages.success(request, done)
    return redirect("registrations", slug=bakeoff.slug)


@login_required
@require_POST
def refusal_reason(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Give the reason of a registration refused without one; its site is mailed it."""
    bakeoff = organised_or_404(request, slug)
    registration = get_object_or_404(
        Registration, pk=pk, site__bakeoff=bakeoff, status=RegistrationStatus.REFUSED
    )
    form = RefusalReasonForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
    elif services.do_give_refusal_reason(
        registration, by=request.user, reason=form.cleaned_data["reason"]
    ):
        names = {"site": registration.site.name, "track": registration.track.name}
        messages.success(request, interpolate(_("Reason given: %(site)s for %(track)s."), **names))
    return redirect("registrations", slug=bakeoff.slug)


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
            names = listing(registration.track.name for registration in added)
            message = interpolate(
                _("%(name)s registered for %(names)s."), name=the_site.name, names=names
            )
            return saved(request, message, "participants", slug=bakeoff.slug)
    title = _("Register %(site)s for tracks") % {"site": the_site}
    return form_page(request, form, title, 400 if form.is_bound else 200, bakeoff=bakeoff)
