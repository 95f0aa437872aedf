"""The development phase and the post-bakeoff phase on the pages (docs/phases.md): a corpus's
development set (added by the organisers, downloaded by registered sites with the training
data), a track's development table, and opening a track for post-bakeoff runs."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from bakeoff.errors import interpolate

from .. import access, clock, services
from ..access import (
    AuthenticatedHttpRequest,
    bakeoff_or_404,
    bakeoff_track_or_404,
    corpus_or_404,
    organised_or_404,
)
from ..errors import NotAllowed, NotReleased, Refused
from ..models import DevelopmentScore, DevelopmentSet, Track
from ..phase_table import Table, shown_in
from .form_page import form_page, refusal_shown_on, saved, uploaded_bytes


class DevelopmentSetForm(forms.Form):
    gold = forms.FileField(
        label=_("Development gold"),
        help_text=_("The development gold, in the corpus's declared encoding."),
    )
    text = forms.FileField(
        label=_("Development text"),
        required=False,
        help_text=_("The development text; without it, the gold with its spaces removed."),
    )


@login_required
def development_set(
    request: AuthenticatedHttpRequest, slug: str, abbreviation: str
) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    form = DevelopmentSetForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        with refusal_shown_on(form):
            services.do_add_development_set(
                corpus,
                text=uploaded_bytes(form.cleaned_data["text"]),
                gold=uploaded_bytes(form.cleaned_data["gold"]) or b"",
                by=request.user,
            )
            message = interpolate(
                _("Development set of %(abbreviation)s stored."), abbreviation=corpus.abbreviation
            )
            return saved(
                request, message, "corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation
            )
    title = _("Development set of %(corpus)s") % {"corpus": corpus.abbreviation}
    return form_page(request, form, title, bakeoff=bakeoff, multipart=True)


def development_download(
    request: HttpRequest, slug: str, abbreviation: str, kind: str
) -> HttpResponse | FileResponse:
    """The development text or gold: released with the training data."""
    bakeoff = bakeoff_or_404(slug, request.user)
    corpus = corpus_or_404(bakeoff, abbreviation)
    dev = DevelopmentSet.objects.filter(corpus=corpus).first()
    if dev is None or kind not in ("text", "gold"):
        raise Http404("No such file.")
    try:
        access.check_can_download(request.user, corpus, "training_text", clock.now())
    except (NotAllowed, NotReleased) as refusal:
        return render(request, "bakeoff/refused.html", {"reason": refusal.message}, status=403)
    if services.needs_agreement(request.user, corpus):
        return redirect("agreement", bakeoff.slug, corpus.abbreviation)
    field = dev.gold if kind == "gold" else dev.text
    return FileResponse(
        field.open("rb"),
        as_attachment=True,
        filename=f"{bakeoff.slug}-{corpus.abbreviation.lower()}-development-{kind}.utf8",
        content_type="text/plain; charset=utf-8",
    )


def development_table(request: HttpRequest, slug: str, track: str) -> HttpResponse:
    """A track's development runs, by F: every run for the organisers, and for everyone when the
    organisers made the development tables public; otherwise a site's own runs."""
    the_track = bakeoff_track_or_404(slug, track, request.user)
    bakeoff = the_track.corpus.bakeoff
    now = clock.now()
    viewer = access.viewer_for(request.user, bakeoff, now)
    scores = DevelopmentScore.objects.filter(
        submission__track=the_track,
        submission__phase__in=shown_in(Table.DEVELOPMENT),
        submission__withdrawn_at__isnull=True,  # a withdrawn run is in no table
    ).select_related("submission__site")
    everyone = viewer.organiser or bakeoff.development_table_public
    if not everyone:
        scores = scores.filter(submission__site_id__in=viewer.site_ids)
    rows = list(scores.order_by("-f", "submission__received_at"))
    return render(
        request,
        "bakeoff/development.html",
        {
            "bakeoff": bakeoff,
            "track": the_track,
            "rows": rows,
            "everyone": everyone,
            "development_set": DevelopmentSet.objects.filter(corpus=the_track.corpus_id).first(),
        },
    )


@login_required
@require_POST
def post_bakeoff_open(
    request: AuthenticatedHttpRequest, slug: str, abbreviation: str, track: str
) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    corpus = corpus_or_404(bakeoff, abbreviation)
    chosen = get_object_or_404(
        Track.objects.select_related("corpus__bakeoff"), corpus=corpus, slug=track
    )
    opening = request.POST.get("open", "1") == "1"
    try:
        services.do_open_post_bakeoff(chosen, open=opening, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        text = (
            _("%(name)s is open for post-bakeoff runs.")
            if opening
            else _("%(name)s is closed to post-bakeoff runs.")
        )
        messages.success(request, interpolate(text, name=chosen.name))
    return redirect("corpus", slug=bakeoff.slug, abbreviation=corpus.abbreviation)
