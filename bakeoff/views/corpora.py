"""Corpora and their data, for a bakeoff's organisers: a corpus, its description and data
agreement, its gold versions and domain labels, its tracks.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms.models import model_to_dict
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy
from django.views.decorators.http import require_POST

from bakeoff.errors import interpolate

from .. import services
from ..access import AuthenticatedHttpRequest, corpus_or_404, organised_or_404
from ..forms import (
    CorpusEditForm,
    CorpusForm,
    DomainLabelsForm,
    GoldForm,
    LicenceForm,
    TrackForm,
    TrackSchemeForm,
)
from ..models import Corpus, GoldVersion, Track
from .form_page import form_page, refusal_shown_on, saved, uploaded_bytes


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
