"""Participant pages: registration, corpus data, uploads, runs and their scores."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TypeGuard

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, QuerySet
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_stubs_ext import StrOrPromise

from bakeoff.errors import interpolate

from .. import access, clock, published, ratelimit, receipt, services
from ..access import (
    AuthenticatedHttpRequest,
    bakeoff_or_404,
    bakeoff_track_or_404,
    corpus_or_404,
)
from ..errors import DescriptionMissing, NotAllowed, NotReleased, Refused
from ..forms import PaperForm, RegistrationForm, UploadForm, WithdrawForm
from ..models import (
    Bakeoff,
    Corpus,
    DevelopmentScore,
    Score,
    Submission,
    SubmissionPhase,
    SystemPaper,
)
from ..phase_table import ScoredAgainst
from ..published import Published
from ..services import uploads
from ..services.downloads import stored_file

DOWNLOADS: dict[access.DataKind, str] = {
    "training_text": "training",
    "training_words": "training-words",
    "test_text": "test",
    "gold": "gold",
}


# What the corpus page calls each file (DOWNLOADS names the files themselves).
DOWNLOAD_LABELS: dict[access.DataKind, StrOrPromise] = {
    "training_text": _("Training text (segmented)"),
    "training_words": _("Training word list"),
    "test_text": _("Test text"),
    "gold": _("Gold standard"),
}


def _file_name(bakeoff: Bakeoff, corpus: Corpus, kind: access.DataKind) -> str:
    return f"{bakeoff.slug}-{corpus.abbreviation.lower()}-{DOWNLOADS[kind]}.utf8"


def _accepted_at(now: datetime) -> StrOrPromise:
    """The receipt's time in UTC (the one deadlines are judged by), and in the reader's zone."""
    utc = now.astimezone(UTC)
    zone = timezone.get_current_timezone()
    if str(zone) in ("UTC", "Etc/UTC"):
        return _("Run accepted at %(time)s UTC.") % {"time": f"{utc:%Y-%m-%d %H:%M:%S}"}
    local = now.astimezone(zone)
    return _("Run accepted at %(time)s UTC (%(local)s in %(zone)s).") % {
        "time": f"{utc:%Y-%m-%d %H:%M:%S}",
        "local": f"{local:%Y-%m-%d %H:%M:%S}",
        "zone": str(zone),
    }


def _downloadable(kind: str) -> TypeGuard[access.DataKind]:
    return kind in DOWNLOADS


@login_required
def register(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = bakeoff_or_404(slug, request.user)
    form = RegistrationForm(request.POST or None, bakeoff=bakeoff)
    now = clock.now()
    post_bakeoff = bakeoff.is_published(now)
    tracks = form.fields["tracks"]
    assert isinstance(tracks, forms.ModelMultipleChoiceField)
    tracks.queryset = services.registrable_tracks(bakeoff, now)
    site = access.sites_of(request.user, bakeoff).first()
    if site is not None:
        for name in ("name", "institution", "country", "commercial_product"):
            form.fields[name].required = False
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if site is None:
                site = services.do_register_site(
                    bakeoff,
                    request.user,
                    name=data["name"],
                    institution=data["institution"],
                    country=data["country"],
                    commercial_product=data["commercial_product"],
                    tracks=form.track_statements(),
                    now=now,
                )
                message: StrOrPromise = (
                    _("Registered for post-bakeoff runs: approved.")
                    if post_bakeoff
                    else _("Registered. The organisers will confirm each track.")
                )
            else:
                changes = services.do_add_registrations(
                    site, form.track_statements(), by=request.user, now=now
                )
                message = changes.message()
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, message)
            return redirect("bakeoff", slug=bakeoff.slug)
    return render(
        request,
        "bakeoff/register.html",
        {
            "bakeoff": bakeoff,
            "form": form,
            "site": site,
            "post_bakeoff": post_bakeoff,
        },
    )


def corpus_detail(request: HttpRequest, slug: str, abbreviation: str) -> HttpResponse:
    bakeoff = bakeoff_or_404(slug, request.user)
    corpus = corpus_or_404(bakeoff, abbreviation)
    now = clock.now()
    downloads = []
    for kind in DOWNLOADS:
        if not getattr(corpus, kind if kind != "gold" else "test_text"):
            continue
        try:
            access.check_can_download(request.user, corpus, kind, now)
        except (NotAllowed, NotReleased):
            continue
        downloads.append((kind, DOWNLOAD_LABELS[kind], _file_name(bakeoff, corpus, kind)))
    is_organiser = access.is_organiser(request.user, bakeoff)
    return render(
        request,
        "bakeoff/corpus_detail.html",
        {
            "bakeoff": bakeoff,
            "corpus": corpus,
            "tracks": corpus.tracks.all(),
            "downloads": downloads,
            "needs_agreement": bool(downloads) and services.needs_agreement(request.user, corpus),
            "acceptances": (
                corpus.acceptances.select_related("site", "accepted_by") if is_organiser else []
            ),
            "is_organiser": is_organiser,
            "published": bakeoff.is_published(now),
            "gold_versions": corpus.gold_versions.all() if is_organiser else [],
            "current_gold": corpus.current_gold(),
        },
    )


def download(
    request: HttpRequest, slug: str, abbreviation: str, kind: str
) -> HttpResponse | FileResponse:
    bakeoff = bakeoff_or_404(slug, request.user)
    corpus = corpus_or_404(bakeoff, abbreviation)
    if not _downloadable(kind):
        raise Http404("No such file.")
    try:
        access.check_can_download(request.user, corpus, kind, clock.now())
    except (NotAllowed, NotReleased) as refusal:
        return render(request, "bakeoff/refused.html", {"reason": refusal.message}, status=403)
    if services.needs_agreement(request.user, corpus):
        return redirect(
            f"{reverse('agreement', args=[bakeoff.slug, corpus.abbreviation])}?next={request.path}"
        )
    # The file as the API finds it (services.downloads): organisers fetch the newest gold, the
    # others the one the published results were scored against.
    stored = stored_file(request.user, corpus, kind)
    if stored is None:
        raise Http404("No such file.")
    return FileResponse(
        stored.field.open("rb"),
        as_attachment=True,
        filename=stored.name,
        content_type="text/plain; charset=utf-8",
    )


@login_required
def upload(request: AuthenticatedHttpRequest, slug: str, track: str) -> HttpResponse:
    the_track = bakeoff_track_or_404(slug, track, request.user)
    bakeoff = the_track.corpus.bakeoff
    if request.method == "POST":
        wait = ratelimit.upload_wait(request.user, bakeoff)
        if wait is not None:
            reason = ratelimit.TOO_MANY_UPLOADS.format(seconds=wait)
            answer = render(request, "bakeoff/refused.html", {"reason": reason}, status=429)
            answer["Retry-After"] = str(wait)
            return answer
    try:
        uploads.check_request_size(request.META)
    except Refused as refusal:
        return render(request, "bakeoff/refused.html", {"reason": refusal.message}, status=413)
    form = UploadForm(
        request.POST or None,
        request.FILES or None,
        initial={"phase": request.GET.get("phase", "test")},
        track=the_track,
    )
    shown_at = clock.now()
    if request.method == "POST" and form.is_valid():
        now = receipt.received_at(request)  # when the request reached the platform
        upload = form.cleaned_data["file"]
        try:
            submission = services.submit_run(
                request.user,
                the_track,
                upload,
                original_name=upload.name or "",
                phase=form.cleaned_data["phase"],
                description=form.cleaned_data["description"],
                now=now,
            )
        except DescriptionMissing as refusal:  # services.check_description, in every phase
            form.add_error("description", refusal.message)
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _accepted_at(now))
            return redirect("submission", slug=bakeoff.slug, pk=submission.pk)
    # After the deadline or at the run limit the form for test runs is not offered: the page says
    # why. Development and post-bakeoff runs have their own rules (docs/phases.md): when one of
    # them is open the form stays, offering those phases only.
    now = clock.now()
    closed = services.upload_refusal(request.user, the_track, now)
    if closed:
        other = services.open_unofficial_phases(request.user, the_track, now)
        phase = form.fields["phase"]
        assert isinstance(phase, forms.ChoiceField)
        phase.choices = [(v, label) for v, label in SubmissionPhase.choices if v in other]
        if other:
            phase.initial = other[0]
            form.initial["phase"] = other[0]
        if form.is_bound and not other and not form.non_field_errors():
            form.add_error(None, closed)
        shown: dict[str, StrOrPromise | bool | None] = {"closed": closed, "offered": bool(other)}
    else:
        shown = {"closed": None, "offered": True}
    return render(
        request,
        "bakeoff/upload.html",
        {
            "bakeoff": bakeoff,
            "track": the_track,
            "form": form,
            "now": shown_at,
            "deadline_passed": bakeoff.accepts_runs_until < shown_at,
            **shown,
        },
    )


def _current_scores() -> Prefetch[str, QuerySet[Score], str]:
    return Prefetch(
        "scores",
        queryset=Score.objects.filter(superseded_at__isnull=True, metric="word").select_related(
            "gold_version"
        ),
        to_attr="current_scores",
    )


def _shown_score(submission: Submission, frozen: Published | None) -> Score | None:
    """The figures of a run to show: after publication an official run's are those of the newest
    results version (None when it is not in that version's table), whatever was re-scored since
    (docs/track-table.md#results-versions); otherwise its current score."""
    if frozen is not None and submission.official:
        return frozen.scores.get(submission.pk)
    current = getattr(submission, "current_scores", None)
    if current is not None:
        return current[0] if current else None
    return submission.current_score()


@login_required
def submissions(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = bakeoff_or_404(slug, request.user)
    now = clock.now()
    viewer = access.viewer_for(request.user, bakeoff, now)
    rows = list(
        access.visible_submissions(request.user, bakeoff, now, viewer=viewer)
        .select_related("track__corpus", "site")
        .prefetch_related(_current_scores())
        .order_by("track__slug", "kind", "site__number", "run_number")
    )
    frozen = published.read(bakeoff, now) if viewer.published else None
    for row in rows:
        row.shown_score = _shown_score(row, frozen)  # type: ignore[attr-defined]
    return render(
        request,
        "bakeoff/submissions.html",
        {
            "bakeoff": bakeoff,
            "submissions": rows,
            "shown": {s.pk for s in rows if viewer.sees_row(s.track_id, s.site_id)},
            "results_version": frozen.version if frozen else None,
        },
    )


@login_required
def submission_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    now = clock.now()
    submission: Submission = access.submission_for(request.user, pk, now)
    bakeoff = submission.track.corpus.bakeoff
    if bakeoff.slug != slug:
        raise Http404("No such submission.")
    viewer = access.viewer_for(request.user, bakeoff, now)
    show = viewer.sees_row(submission.track_id, submission.site_id)
    try:
        services.check_can_withdraw(request.user, submission, now)
        may_withdraw = True
    except Refused:
        may_withdraw = False
    frozen = None
    if viewer.published and submission.official:
        frozen = published.read(bakeoff, now, submission.track)
    score = _shown_score(submission, frozen) if show else None
    development = None  # a development run's figures, against the development set's gold
    if show and submission.phase_facts.scored_against is ScoredAgainst.DEVELOPMENT_SET:
        development = DevelopmentScore.objects.filter(submission=submission).first()
    history = submission.scores.filter(metric="word").select_related("gold_version")
    live = None
    if frozen is not None:
        if viewer.organiser:  # their working figures, apart from the published ones
            current = submission.current_score()
            if current is not None and (score is None or current.pk != score.pk):
                live = current
        else:  # no score against a gold version that no published version has released
            history = history.filter(gold_version__released_with_results=True)
    return render(
        request,
        "bakeoff/submission_detail.html",
        {
            "bakeoff": bakeoff,
            "submission": submission,
            "score": score,
            "development_score": development,
            "results_version": frozen.version if frozen else None,
            "live_score": live,
            "history": published.history(submission, history, frozen, now) if show else [],
            "show_scores": show,
            "withdraw_form": WithdrawForm() if may_withdraw else None,
        },
    )


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """A member of the run's site withdraws it while its phase allows (the service's rule)."""
    now = clock.now()
    submission = access.submission_for(request.user, pk, now)
    if submission.track.corpus.bakeoff.slug != slug:
        raise Http404("No such submission.")
    form = WithdrawForm(request.POST)
    if not form.is_valid():  # a reason too long, or with a control character
        refusal = "; ".join(str(message) for message in form.errors.get("reason", []))
        return render(request, "bakeoff/refused.html", {"reason": refusal}, status=400)
    reason = form.cleaned_data["reason"]
    try:
        services.do_withdraw_run(submission, user=request.user, now=now, reason=reason)
    except Refused as refusal:
        return render(
            request, "bakeoff/refused.html", {"reason": refusal.message}, status=refusal.status_code
        )
    text = (
        _(
            "%(run)s of %(track)s withdrawn: it will not be ranked, and its slot is free for "
            "another run."
        )
        if submission.official
        else _(
            "%(run)s of %(track)s withdrawn: it is in no table any more, and still counts "
            "toward the day's limit."
        )
    )
    messages.success(
        request, text % {"run": submission.shown_label, "track": submission.track.name}
    )
    return redirect("submission", slug=slug, pk=submission.pk)


@login_required
def paper(request: AuthenticatedHttpRequest, slug: str, track: str) -> HttpResponse:
    """The site's system-description paper for a track: a PDF of at most 10 MB, or a link."""
    the_track = bakeoff_track_or_404(slug, track, request.user)
    bakeoff = the_track.corpus.bakeoff
    try:
        site = services.papers.site_for_paper(request.user, the_track)
    except Refused as refusal:
        return render(request, "bakeoff/refused.html", {"reason": refusal.message}, status=403)
    try:
        uploads.check_request_size(request.META, limit=services.PAPER_MAX_BYTES)
    except Refused as refusal:
        return render(request, "bakeoff/refused.html", {"reason": refusal.message}, status=413)
    form = PaperForm(request.POST if request.method == "POST" else None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.do_attach_paper(
                request.user,
                the_track,
                upload=form.cleaned_data["file"],
                url=form.cleaned_data["url"],
                title=form.cleaned_data["title"],
            )
        except Refused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("Paper attached to %(track)s.") % {"track": the_track.name})
            return redirect("bakeoff", slug=bakeoff.slug)
    return render(
        request,
        "bakeoff/paper.html",
        {
            "bakeoff": bakeoff,
            "track": the_track,
            "form": form,
            "current": SystemPaper.objects.filter(site=site, track=the_track).first(),
        },
    )


def paper_file(request: HttpRequest, slug: str, track: str, site: int) -> FileResponse:
    """A stored paper: for the site and the organisers; after publication for everyone, unless
    the results were published with codes instead of names (a paper names its authors, and its
    address the site)."""
    the_track = bakeoff_track_or_404(slug, track, request.user)
    bakeoff = the_track.corpus.bakeoff
    found = SystemPaper.objects.filter(track=the_track, site_id=site).first()
    now = clock.now()
    viewer = access.viewer_for(request.user, bakeoff, now)
    if found is None or not found.file:
        raise Http404("No such paper.")
    if not (viewer.organiser or site in viewer.site_ids):
        shown = published.read(bakeoff, now, the_track) if viewer.published else None
        if shown is None or shown.anonymised:
            raise Http404("No such paper.")
    return FileResponse(
        found.file.open("rb"),
        as_attachment=False,
        filename=f"{bakeoff.slug}-{the_track.slug}-{found.site.code or site}.pdf",
        content_type="application/pdf",
    )


@login_required
def agreement(request: AuthenticatedHttpRequest, slug: str, abbreviation: str) -> HttpResponse:
    """The corpus's data agreement; a member of a registered site accepts it for the site."""
    bakeoff = bakeoff_or_404(slug, request.user)
    corpus = corpus_or_404(bakeoff, abbreviation)
    if not corpus.licence.strip():
        return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)
    sites = services.agreements.sites_to_accept(request.user, corpus)
    next_path = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_path, allowed_hosts={request.get_host()}):
        next_path = ""
    if request.method == "POST":
        try:
            services.do_accept_licence(corpus, request.user)
        except Refused as refusal:
            return render(request, "bakeoff/refused.html", {"reason": refusal.message}, status=403)
        messages.success(
            request,
            interpolate(
                _("You accepted the data agreement of %(abbreviation)s."),
                abbreviation=corpus.abbreviation,
            ),
        )
        return redirect(next_path or reverse("corpus", args=[bakeoff.slug, corpus.abbreviation]))
    return render(
        request,
        "bakeoff/agreement.html",
        {
            "bakeoff": bakeoff,
            "corpus": corpus,
            "sites": sites,
            "accepted": not services.needs_agreement(request.user, corpus),
            "next": next_path,
        },
    )
