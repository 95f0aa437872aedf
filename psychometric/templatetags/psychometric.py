"""The sections psychometric adds to the pages of bakeoff and leaderboard: the committee panel of
a corpus page and the balanced scores of a run page. Each reads stored rows only (one or two
queries). ``PsychometricConfig.ready()`` puts ``corpus_section``, ``run_section`` and
``erratum_section`` at their places (``bakeoff.sections``); the inclusion tags are the same sections
for a template that names this library."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from bakeoff import sections
from bakeoff.models import Bakeoff, Corpus, Score, Track
from leaderboard.models import TrackStanding
from leaderboard.visibility import Viewer

from ..forms import CommitteeForm
from ..frozen import thawed_balanced
from ..models import ACTIVE, BALANCED, Committee, CommitteeStatus
from ..plots import accuracy_by_difficulty

register = template.Library()


@register.inclusion_tag("psychometric/_corpus.html", takes_context=True)
def committee_panel(context: template.Context, corpus: Corpus) -> dict[str, Any]:
    """The organiser's view: the committee versions of the corpus, their progress, the form."""
    has_training = bool(corpus.training_text.name)
    return {
        "bakeoff": context.get("bakeoff"),
        "corpus": corpus,
        "csrf_token": context.get("csrf_token"),
        "has_training": has_training,
        "committees": list(
            Committee.objects.filter(corpus=corpus)
            .defer("data", "hardest")
            .select_related("gold_version")
        ),
        "form": CommitteeForm(has_training_text=has_training),
        "embedded": settings.CELERY_TASK_ALWAYS_EAGER,
    }


@register.inclusion_tag("psychometric/_run.html")
def balanced_section(
    standing: TrackStanding,
    viewer: Viewer,
    frozen: dict[str, Any] | None = None,
    version: int | None = None,
) -> dict[str, Any]:
    """P_b, R_b, F_b, the accuracy by difficulty, and (gold data: for the organiser, or for
    everyone once published) the hardest gold words with this run's share of them.

    Before publication only the organisers see them: the committee may be the track's runs, and
    a balanced score is then computed from runs the participant may not see. On a page of a
    results version (``frozen``: the sections frozen with the run's track, and the ``version``'s
    number) they are the ones that version froze, whatever committee finished since; a version
    frozen without them says so rather than show the live ones."""
    if not viewer.sees_statistics:
        return {"balanced": None, "sealed": True}
    if frozen is not None:
        thawed = thawed_balanced(frozen, standing.submission_id)
        if not thawed.in_version:
            return {"balanced": None, "not_in_version": version}
        if thawed.score is None:
            return {"balanced": None, "unrated_in_version": version}
        return _shown(thawed.score, thawed.hardest, viewer, version)
    balanced = Score.objects.filter(
        submission_id=standing.submission_id,
        gold_version_id=standing.score.gold_version_id,
        metric=BALANCED,
    ).first()
    if balanced is None:
        return {"balanced": None}
    hardest: list[dict[str, Any]] = []
    if viewer.sees_all:
        committee = (
            Committee.objects.filter(pk=balanced.result.get("committee_id")).only("hardest").first()
        )
        hardest = committee.hardest if committee else []
    return _shown(balanced, hardest, viewer, None)


def _shown(
    balanced: Score, hardest: list[dict[str, Any]], viewer: Viewer, version: int | None
) -> dict[str, Any]:
    result = balanced.result
    found = result.get("hardest_found", [])
    return {
        "balanced": balanced,
        "result": result,
        "version": version,
        "sees_gold": viewer.sees_all,
        "hardest": [
            {**word, "found": found[i] if i < len(found) else None}
            for i, word in enumerate(hardest if viewer.sees_all else [])
        ],
        "chart": mark_safe(
            accuracy_by_difficulty(
                result.get("difficulty_profile", []),
                title=str(_("Share of gold words segmented correctly, by difficulty")),
            )
        ),
    }


def committee_hints(bakeoff: Bakeoff, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per corpus whose tracks' balanced F the erratum's figures lack (``versions.described``'s
    ``dropped``): its current gold, which no complete committee rates yet, and the committee being
    built on it, if one is. A corpus whose current gold has a complete committee needs none."""
    slugs = [change["track"] for change in changes if "f_b" in change.get("dropped", ())]
    if not slugs:
        return []
    tracks: dict[Corpus, list[str]] = {}
    for track in (
        Track.objects.filter(corpus__bakeoff=bakeoff, slug__in=slugs)
        .select_related("corpus")
        .order_by("corpus__abbreviation", "slug")
    ):
        tracks.setdefault(track.corpus, []).append(track.name)
    hints = []
    for corpus, names in tracks.items():
        gold = corpus.current_gold()
        if gold is None:
            continue
        committees = Committee.objects.filter(gold_version=gold).defer("data", "hardest")
        if committees.filter(status=CommitteeStatus.COMPLETE).exists():
            continue
        hints.append(
            {
                "corpus": corpus,
                "tracks": gettext(", ").join(names),
                "gold": gold.number,
                "building": committees.filter(status__in=ACTIVE).first(),
            }
        )
    return hints


def erratum_section(context: template.Context) -> SafeString:
    """Under what an erratum would change (``leaderboard/erratum.html``, the organisers' page):
    where the new figures lack F_b, a committee on the new gold to build first."""
    bakeoff = context["bakeoff"]
    hints = committee_hints(bakeoff, context.get("changes") or [])
    if not hints:
        return SafeString("")
    return sections.render(
        context, "psychometric/_erratum.html", {"bakeoff": bakeoff, "hints": hints}
    )


def corpus_section(context: template.Context) -> SafeString:
    """At the organiser's part of a corpus page (``bakeoff/corpus_detail.html``)."""
    data = committee_panel(context, context["corpus"])
    return sections.render(context, "psychometric/_corpus.html", data)


def run_section(context: template.Context) -> SafeString:
    """Among a run's figures (``leaderboard/run.html``)."""
    version = context.get("version")
    data = balanced_section(
        context["standing"],
        context["viewer"],
        context.get("frozen_sections"),
        version.number if version is not None else None,
    )
    return sections.render(context, "psychometric/_run.html", data)
