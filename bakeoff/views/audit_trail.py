"""A bakeoff's audit trail, for its organisers: the page (filtered) and its CSV."""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime, time, timedelta

from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import translation

from .. import audit, audit_text, clock
from ..access import AuthenticatedHttpRequest, organised_or_404
from ..forms import AuditFilterForm
from ..models import AuditEntry, Bakeoff, Track

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
