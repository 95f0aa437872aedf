"""What analysis does when bakeoff announces a change (connected in ``AnalysisConfig.ready``)."""

from __future__ import annotations

from typing import Any

from bakeoff.models import Corpus, Submission, Track

from . import tasks
from .models import FROZEN_FIELDS, TrackAnalysis


def analyse_track(*, submission: Submission, **_: Any) -> None:
    """A score was stored: the track's attribute buckets and bootstraps, once committed. Only
    official (test) runs are analysed (docs/phases.md)."""
    if not submission.official:
        return
    tasks.analyse_track.delay_on_commit(submission.track_id)


def analyse_again(*, track: Track, **_: Any) -> None:
    """The track's bucket scheme changed: its analysis, cut the new way, once committed."""
    tasks.analyse_track.delay_on_commit(track.pk)


def analyse_domains(*, corpus: Corpus, **_: Any) -> None:
    """The corpus's test lines have new domain labels: its tracks' analyses, with buckets per
    domain, once committed."""
    for track_id in corpus.tracks.values_list("pk", flat=True):
        tasks.analyse_track.delay_on_commit(track_id)


def freeze_analysis(*, tracks: dict[int, dict[str, Any]], **_: Any) -> None:
    """A results version is frozen: each track's analysis (scheme, profile, bootstraps) is kept
    with it as it stands, so the published pages show the analysis that was published."""
    for analysis in TrackAnalysis.objects.filter(track_id__in=list(tracks)):
        tracks[analysis.track_id]["sections"]["analysis"] = {
            "computed_at": analysis.computed_at.isoformat(),
            "started_at": analysis.started_at.isoformat(),
            **{name: getattr(analysis, name) for name in FROZEN_FIELDS},
        }
