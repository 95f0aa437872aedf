"""The organiser's participants page (sites, members, invitations) and the page of an
invitation link, which makes or links the account and puts it in the site."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django.views.decorators.http import require_POST

from .. import clock, services
from ..access import AuthenticatedHttpRequest, organised_or_404
from ..errors import Refused, interpolate
from ..forms import InvitedAccountForm, InviteForm, InviteSitesForm
from ..models import Bakeoff, Invitation, Registration, Site
from ..services import uploads


def _participants_page(
    request: AuthenticatedHttpRequest,
    bakeoff: Bakeoff,
    invite_form: InviteForm | None = None,
    sites_form: InviteSitesForm | None = None,
    status: int = 200,
) -> HttpResponse:
    now = clock.now()
    sites = (
        Site.objects.filter(bakeoff=bakeoff)
        .prefetch_related(
            Prefetch("members", queryset=User.objects.order_by("username")),
            Prefetch(
                "registrations", queryset=Registration.objects.select_related("track__corpus")
            ),
        )
        .order_by("number", "name")
    )
    invitations = [
        (invitation, invitation.state(now))
        for invitation in Invitation.objects.filter(bakeoff=bakeoff).select_related(
            "site", "accepted_by"
        )
    ]
    return render(
        request,
        "bakeoff/participants.html",
        {
            "bakeoff": bakeoff,
            "sites": sites,
            "invitations": invitations,
            "invite_form": invite_form or InviteForm(bakeoff=bakeoff),
            "sites_form": sites_form or InviteSitesForm(),
        },
        status=status,
    )


@login_required
def participants(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _participants_page(request, organised_or_404(request, slug))


@login_required
@require_POST
def invite(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    form = InviteForm(request.POST, bakeoff=bakeoff)
    if form.is_valid():
        try:
            # All or nothing: a refused address (not one, invited already) names itself.
            with transaction.atomic():
                invited = [
                    services.do_invite(
                        bakeoff, email, site=form.cleaned_data["site"], by=request.user
                    )
                    for email in form.cleaned_data["email"]
                ]
        except Refused as refusal:
            form.add_error(
                None, interpolate(_("%(refusal)s Nothing was changed."), refusal=refusal.message)
            )
        else:
            messages.success(
                request,
                interpolate(
                    _("%(email)s is invited; the link is on its way."), email=invited[0].email
                )
                if len(invited) == 1
                else interpolate(
                    ngettext_lazy(
                        "%(count)d address is invited; the links are on their way.",
                        "%(count)d addresses are invited; the links are on their way.",
                        "count",
                    ),
                    count=len(invited),
                ),
            )
            return redirect("participants", slug=bakeoff.slug)
    return _participants_page(request, bakeoff, invite_form=form, status=400)


@login_required
@require_POST
def invite_sites(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    form = InviteSitesForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            rows = services.read_sites_csv(uploads.read_capped(form.cleaned_data["file"]))
            invitations = services.do_invite_sites(bakeoff, rows, by=request.user)
        except Refused as refusal:
            form.add_error(
                None, interpolate(_("%(refusal)s Nothing was changed."), refusal=refusal.message)
            )
        else:
            messages.success(
                request,
                interpolate(
                    ngettext_lazy("%(count)s site invited.", "%(count)s sites invited.", "count"),
                    count=len(invitations),
                ),
            )
            return redirect("participants", slug=bakeoff.slug)
    return _participants_page(request, bakeoff, sites_form=form, status=400)


@login_required
@require_POST
def remove_member(
    request: AuthenticatedHttpRequest, slug: str, site: int, user: int
) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    the_site = get_object_or_404(Site, pk=site, bakeoff=bakeoff)
    member = get_object_or_404(the_site.members, pk=user)
    the_site.members.remove(member)
    messages.success(
        request,
        interpolate(
            _("%(username)s is no longer a member of %(name)s."),
            username=member.get_username(),
            name=the_site.name,
        ),
    )
    return redirect("participants", slug=bakeoff.slug)


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the link offers; POST: accept it (signed in) or make the account and accept."""
    try:
        found = services.invitation_for(token)
    except Refused as refusal:
        return render(
            request,
            "bakeoff/invitation.html",
            {"refusal": refusal.message},
            status=refusal.status_code,
        )
    user = request.user
    form = None
    exists = User.objects.filter(email__iexact=found.email).exists()
    if request.method == "POST":
        try:
            if user.is_authenticated:
                assert isinstance(user, User)
                if not services.do_accept_invitation(found, user):
                    raise Refused(_("This invitation was used or expired meanwhile."))
                return _joined(request, found)
            if not exists:
                form = InvitedAccountForm(request.POST)
                if form.is_valid():
                    account = services.do_create_invited_account(
                        found,
                        username=form.cleaned_data["username"],
                        password=form.cleaned_data["password1"],
                    )
                    login(request, account, backend="django.contrib.auth.backends.ModelBackend")
                    return _joined(request, found)
        except Refused as refusal:
            return render(
                request, "bakeoff/invitation.html", {"refusal": refusal.message}, status=400
            )
    elif not user.is_authenticated and not exists:
        form = InvitedAccountForm()
    return render(
        request,
        "bakeoff/invitation.html",
        {
            "invitation": found,
            "bakeoff": found.bakeoff,
            "form": form,
            "exists": exists,
            "login_url": f"{reverse('account_login')}?next={request.path}",
        },
        status=400 if form is not None and form.is_bound else 200,
    )


def _joined(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    bakeoff = invitation.bakeoff
    if invitation.site is not None:
        messages.success(request, interpolate(_("Welcome to %(name)s."), name=invitation.site.name))
        if not invitation.site.registrations.exists():
            return redirect("register", slug=bakeoff.slug)
        return redirect("bakeoff", slug=bakeoff.slug)
    messages.success(request, _("Welcome. Register your site for the tracks you will enter."))
    return redirect("register", slug=bakeoff.slug)
