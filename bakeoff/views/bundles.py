"""Organiser pages for bundles (docs/bundles.md): a new bakeoff from a bundle, the next edition of
a bakeoff, and a bakeoff's definition as a bundle to download."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.utils.translation import gettext_lazy as _

from .. import access, bundles
from ..access import AuthenticatedHttpRequest, organised_or_404
from ..errors import interpolate
from ..forms import BundleForm, CloneForm
from .form_page import form_page, refusal_shown_on, saved, uploaded_bytes


@login_required
def bakeoff_load(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Who may create a bakeoff may load one; it is a draft with them as its organiser."""
    if not access.can_create_bakeoff(request.user):
        raise Http404("You may not create bakeoffs.")
    form = BundleForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            data = uploaded_bytes(form.cleaned_data["bundle"]) or b""
            bakeoff = bundles.load_bundle(
                bundles.zip_bundle(data),
                by=request.user,
                organisers=[request.user],
                slug=form.cleaned_data["slug"] or None,
            )
            message = _(
                "Bakeoff created as a draft from the bundle, seen by its organisers only. "
                "Check it, then open it."
            )
            return saved(request, message, "bakeoff", slug=bakeoff.slug)
    return form_page(request, form, _("New bakeoff from a bundle"), multipart=True)


@login_required
def bakeoff_clone(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """An organiser of the bakeoff who may create bakeoffs makes its next edition."""
    bakeoff = organised_or_404(request, slug)
    if not access.can_create_bakeoff(request.user):
        raise Http404("You may not create bakeoffs.")
    form = CloneForm(
        request.POST or None, initial={"name": bakeoff.name, "slug": f"{bakeoff.slug}-next"}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with refusal_shown_on(form):
            clone = bundles.clone_bakeoff(
                bakeoff,
                slug=data["slug"],
                name=data["name"],
                shift_days=data["shift_days"],
                with_corpora=data["with_corpora"],
                by=request.user,
            )
            message = interpolate(
                _("%(name)s created as a draft, its timetable moved by %(days)s days."),
                name=clone.name,
                days=data["shift_days"],
            )
            return saved(request, message, "bakeoff", slug=clone.slug)
    title = interpolate(_("Next edition of %(bakeoff)s"), bakeoff=bakeoff.name)
    return form_page(request, form, title, bakeoff=bakeoff)


@login_required
def bakeoff_bundle(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The bakeoff's definition as a bundle (zip), for its organisers."""
    bakeoff = organised_or_404(request, slug)
    manifest, files = bundles.bundle_of(bakeoff)
    response = HttpResponse(bundles.zip_of(manifest, files), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{bakeoff.slug}-bundle.zip"'
    return response
