"""A bakeoff, for its organisers: creating it, its settings and timetable, opening it, its
announcements.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from bakeoff.errors import interpolate

from .. import access, services
from ..access import AuthenticatedHttpRequest, organised_or_404
from ..errors import Refused
from ..forms import TIMETABLE, AnnouncementForm, BakeoffForm
from ..models import Bakeoff, Submission
from ..services import timetable
from .form_page import form_page, refusal_shown_on, saved


@login_required
def bakeoff_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not access.can_create_bakeoff(request.user):
        raise Http404("You may not create bakeoffs.")
    # The zone the reader's browser reports (or they chose): a zh-CN organiser's timetable is
    # most likely in Asia/Shanghai, not in the server's UTC.
    form = BakeoffForm(
        request.POST or None, initial={"time_zone": timezone.get_current_timezone_name()}
    )
    if request.method == "POST" and form.is_valid():
        bakeoff = services.do_create_bakeoff(
            form.save(commit=False), organisers=[request.user], by=request.user, source="page"
        )
        messages.success(
            request,
            _(
                "Bakeoff created as a draft, seen by its organisers only. Add a corpus and its "
                "tracks, then open it."
            ),
        )
        return redirect("bakeoff", slug=bakeoff.slug)
    return form_page(request, form, _("New bakeoff"))


@login_required
def bakeoff_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The timetable goes through ``services.timetable`` (checked and recorded); moving the
    deadline before runs already received shows them and asks what to do with them."""
    bakeoff = organised_or_404(request, slug)
    form = BakeoffForm(
        request.POST or None, instance=bakeoff, decide_late="late_decision" in request.POST
    )
    late_runs: list[Submission] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        new = {name: data[name] for name in (*TIMETABLE, "grace_minutes")}
        try:
            with transaction.atomic():
                timetable.do_change_timetable(
                    bakeoff,
                    new,
                    by=request.user,
                    decision=data.get("late_decision") or "",
                    reason=data.get("late_reason") or "",
                    note=data.get("timetable_note") or "",
                )
                form.save()
        except timetable.LateRunsNeedDecision as need:
            late_runs = need.runs
            fresh = Bakeoff.objects.get(pk=bakeoff.pk)  # the form changed the instance
            form = BakeoffForm(request.POST, instance=fresh, decide_late=True)
            form.is_valid()  # valid as before; the decision is what is missing
            form.add_error("late_decision", need.message)
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            return saved(request, _("Saved."), "bakeoff", slug=bakeoff.slug)
    return form_page(
        request,
        form,
        _("Edit %(bakeoff)s") % {"bakeoff": bakeoff.name},
        bakeoff=bakeoff,
        late_runs=late_runs,
    )


@login_required
def announcement_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    form = AnnouncementForm(request.POST or None, bakeoff=bakeoff)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            services.do_post_announcement(
                bakeoff,
                subject=form.cleaned_data["subject"],
                text=form.cleaned_data["text"],
                tracks=form.cleaned_data["tracks"],
                by=request.user,
            )
            message = _("Announced; the mail is on its way.")
            return saved(request, message, "bakeoff", slug=bakeoff.slug)
    return form_page(request, form, _("New announcement"), bakeoff=bakeoff)


@login_required
def bakeoff_open(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Open a draft: from now on everyone sees the bakeoff. It cannot be undone, so the page
    says what opening does and asks again (``confirmed``) before it opens."""
    bakeoff = organised_or_404(request, slug)
    if request.method != "POST" or request.POST.get("confirmed") != "on":
        if not bakeoff.is_draft:
            return redirect("bakeoff", slug=bakeoff.slug)
        corpora = bakeoff.corpora.prefetch_related("tracks").order_by("abbreviation")
        return render(
            request, "bakeoff/open_confirm.html", {"bakeoff": bakeoff, "corpora": corpora}
        )
    try:
        services.do_open_bakeoff(bakeoff, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(
            request, interpolate(_("%(name)s is open: everyone sees it now."), name=bakeoff.name)
        )
    return redirect("bakeoff", slug=bakeoff.slug)
