"""Organiser pages: bakeoffs, corpora and gold versions, tracks, registrations."""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime, time, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django.views.decorators.http import require_POST

from bakeoff.errors import interpolate

from .. import access, audit, audit_text, clock, services
from ..access import AuthenticatedHttpRequest, corpus_or_404, organised_or_404
from ..errors import Refused
from ..forms import (
    TIMETABLE,
    AnnouncementForm,
    AuditFilterForm,
    BakeoffForm,
    CorpusForm,
    DecisionForm,
    DomainLabelsForm,
    GoldForm,
    LicenceForm,
    RefusalReasonForm,
    TrackForm,
    TrackSchemeForm,
)
from ..models import (
    AuditEntry,
    Bakeoff,
    Corpus,
    GoldVersion,
    Registration,
    RegistrationStatus,
    Submission,
    Track,
)
from ..services import timetable
from .form_page import form_page, refusal_shown_on, saved, uploaded_bytes


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
def corpus_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    form = CorpusForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with refusal_shown_on(form):
            corpus = services.do_create_corpus(
                bakeoff,
                services.CorpusFiles(
                    gold=uploaded_bytes(data["gold"]) or b"",
                    test_text=uploaded_bytes(data["test_text"]),
                    training_words=uploaded_bytes(data["training_words"]),
                    training_text=uploaded_bytes(data["training_text"]),
                    domain_labels=uploaded_bytes(data["domain_labels"]),
                ),
                name=data["name"],
                abbreviation=data["abbreviation"],
                institution=data["institution"],
                standard=data["standard"],
                encoding=data["encoding"],
                conditions=form.conditions(),
                max_runs=data["max_runs"],
                accept_differences=data["accept_differences"],
                licence=data["licence"],
                user=request.user,
            )
            message = interpolate(
                _("Corpus %(abbreviation)s added."), abbreviation=corpus.abbreviation
            )
            return saved(
                request, message, "corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation
            )
    return form_page(request, form, _("New corpus"), bakeoff=bakeoff, multipart=True)


@login_required
def gold_create(request: AuthenticatedHttpRequest, slug: str, abbreviation: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    form = GoldForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            gold = services.do_add_gold_version(
                corpus,
                uploaded_bytes(form.cleaned_data["gold"]) or b"",
                user=request.user,
                note=form.cleaned_data["note"],
                accept_differences=form.cleaned_data["accept_differences"],
            )
            message = interpolate(
                _("Gold version %(number)s added; runs are re-scored."), number=gold.number
            )
            return saved(
                request, message, "corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation
            )
    title = _("New gold version of %(corpus)s") % {"corpus": corpus.abbreviation}
    return form_page(request, form, title, bakeoff=bakeoff, multipart=True)


@login_required
def domain_labels_set(
    request: AuthenticatedHttpRequest, slug: str, abbreviation: str
) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    form = DomainLabelsForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            services.do_set_domain_labels(
                corpus, uploaded_bytes(form.cleaned_data["domain_labels"]) or b"", user=request.user
            )
            message = interpolate(
                _("%(count)s domains; the figures per domain of every run are being computed."),
                count=len(corpus.domains),
            )
            return saved(
                request, message, "corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation
            )
    title = _("Domain labels of %(corpus)s") % {"corpus": corpus.abbreviation}
    return form_page(request, form, title, bakeoff=bakeoff, multipart=True)


@login_required
@require_POST
def gold_accept(
    request: AuthenticatedHttpRequest, slug: str, abbreviation: str, number: int
) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    gold = get_object_or_404(GoldVersion, corpus=corpus, number=number)
    if services.do_accept_differences(gold, user=request.user):
        messages.success(request, _("Differences accepted; the runs are scored again."))
    return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)


@login_required
def track_create(request: AuthenticatedHttpRequest, slug: str, abbreviation: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    form = TrackForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            services.do_add_track(
                corpus,
                form.cleaned_data["condition"],
                max_runs=form.cleaned_data["max_runs"],
                bucket_scheme=form.cleaned_data["bucket_scheme"],
                by=request.user,
            )
            return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)
    return form_page(
        request,
        form,
        _("New track of %(corpus)s") % {"corpus": corpus.abbreviation},
        400 if form.is_bound else 200,
        bakeoff=bakeoff,
    )


@login_required
def track_edit(
    request: AuthenticatedHttpRequest, slug: str, abbreviation: str, track: str
) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    chosen = get_object_or_404(Track, corpus=corpus, slug=track)
    form = TrackSchemeForm(
        request.POST or None,
        initial={"bucket_scheme": chosen.bucket_scheme, "max_runs": chosen.max_runs},
    )
    if request.method == "POST" and form.is_valid():
        if services.do_set_bucket_scheme(
            chosen, form.cleaned_data["bucket_scheme"], by=request.user
        ):
            messages.success(
                request,
                interpolate(
                    _("%(name)s: bucket scheme changed; analysed again."), name=chosen.name
                ),
            )
        max_runs = form.cleaned_data["max_runs"]
        if max_runs is not None and services.do_set_max_runs(chosen, max_runs, by=request.user):
            messages.success(
                request,
                interpolate(
                    ngettext_lazy(
                        "%(name)s: %(max_runs)s run per site.",
                        "%(name)s: %(max_runs)s runs per site.",
                        "max_runs",
                    ),
                    name=chosen.name,
                    max_runs=max_runs,
                ),
            )
        return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)
    return form_page(
        request, form, _("Edit track %(track)s") % {"track": chosen.name}, bakeoff=bakeoff
    )


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
def licence_edit(request: AuthenticatedHttpRequest, slug: str, abbreviation: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    form = LicenceForm(request.POST or None, initial={"licence": corpus.licence})
    if request.method == "POST" and form.is_valid():
        Corpus.objects.filter(pk=corpus.pk).update(licence=form.cleaned_data["licence"].strip())
        message = _("Data agreement saved.")
        return saved(
            request, message, "corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation
        )
    title = _("Data agreement of %(corpus)s") % {"corpus": corpus.abbreviation}
    return form_page(request, form, title, bakeoff=bakeoff)


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


AUDIT_PAGE = 500


def _audit_entries(bakeoff: Bakeoff, form: AuditFilterForm) -> QuerySet[AuditEntry]:
    entries = AuditEntry.objects.filter(bakeoff=bakeoff).order_by("at", "id")
    if not form.is_valid():
        return entries.none()
    data = form.cleaned_data
    if data["action"]:
        entries = entries.filter(action=data["action"])
    if data["track"] is not None:
        entries = entries.filter(track=data["track"])
    if data["site"] is not None:
        entries = entries.filter(site=data["site"])
    zone = bakeoff.zone  # dates are the bakeoff's days
    if data["since"]:
        entries = entries.filter(at__gte=datetime.combine(data["since"], time(), zone))
    if data["until"]:
        end = datetime.combine(data["until"] + timedelta(days=1), time(), zone)
        entries = entries.filter(at__lt=end)
    return entries


@login_required
def audit_trail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The bakeoff's audit trail for its organisers, filtered by action, track, site and date."""
    bakeoff = organised_or_404(request, slug)
    form = AuditFilterForm(request.GET or {}, bakeoff=bakeoff)
    entries = _audit_entries(bakeoff, form)
    total = entries.count()
    shown = list(entries.reverse()[:AUDIT_PAGE])  # newest first on the page
    tracks = {
        t.pk: t.name for t in Track.objects.filter(corpus__bakeoff=bakeoff).select_related("corpus")
    }
    sites = {s.pk: str(s) for s in bakeoff.sites.all()}
    language = translation.get_language()
    rows = [
        {
            "entry": entry,
            "label": audit.LABELS.get(entry.action, entry.action),
            "track": tracks.get(entry.track_id or 0, ""),
            "site": sites.get(entry.site_id or 0, ""),
            "subject": _shown_subject(entry),
            "details": audit_text.shown_details(entry.details, language),
        }
        for entry in shown
    ]
    return render(
        request,
        "bakeoff/audit.html",
        {
            "bakeoff": bakeoff,
            "form": form,
            "rows": rows,
            "total": total,
            "limit": AUDIT_PAGE,
            "query": request.GET.urlencode(),
        },
    )


def _shown_subject(entry: AuditEntry) -> str:
    return audit_text.shown_subject(entry.subject_code, entry.subject_params, entry.subject)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: one that could start a formula gets a quote."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


# For machines and archives: the stored English subject, its code and facts; the last column is
# the subject as the page shows it, in the language of whoever downloads (docs/contest-life.md).
CSV_COLUMNS = (
    "at_utc",
    "action",
    "actor",
    "track",
    "site",
    "subject",
    "details",
    "subject_code",
    "subject_params",
    "subject_shown",
)


@login_required
def audit_csv(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The (filtered) audit trail as CSV, oldest first; every cell inert."""
    bakeoff = organised_or_404(request, slug)
    form = AuditFilterForm(request.GET or {}, bakeoff=bakeoff)
    entries = _audit_entries(bakeoff, form)
    tracks = {t.pk: t.slug for t in Track.objects.filter(corpus__bakeoff=bakeoff)}
    sites = {s.pk: s.code or s.name for s in bakeoff.sites.all()}
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = clock.now().astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    response["Content-Disposition"] = f'attachment; filename="{bakeoff.slug}-audit-{stamp}.csv"'
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for entry in entries.iterator():
        writer.writerow(
            [
                inert(value)
                for value in (
                    entry.at.astimezone(UTC).isoformat(),
                    entry.action,
                    entry.actor_label,
                    tracks.get(entry.track_id or 0, ""),
                    sites.get(entry.site_id or 0, ""),
                    entry.subject,
                    json.dumps(entry.details, ensure_ascii=False, sort_keys=True),
                    entry.subject_code,
                    json.dumps(entry.subject_params, ensure_ascii=False, sort_keys=True),
                    _shown_subject(entry),
                )
            ]
        )
    return response
