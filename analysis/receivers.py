"""What analysis does when bakeoff announces a change (connected in ``AnalysisConfig.ready``)."""

from __future__ import annotations

from typing import Any

from bakeoff.models import Corpus, Track

from . import tasks
from .models import FROZEN_FIELDS, FROZEN_RUN_FIELDS, RunAnalysis, TrackAnalysis


def analyse_track(*, track_id: int, **_: Any) -> None:
    """The track's ranking was stored (a score, a withdrawal, a late mark): its attribute buckets
    and bootstraps, once committed. The analysis reads the stored standings, so only official
    runs are analysed (docs/phases.md), and a ranking that changed no standing is answered at
    once (``services.do_analyse_track``)."""
    tasks.analyse_track.delay_on_commit(track_id)


def analyse_again(*, track: Track, **_: Any) -> None:
    """The track's bucket scheme changed: its analysis, cut the new way, once committed."""
    tasks.analyse_track.delay_on_commit(track.pk)


def analyse_domains(*, corpus: Corpus, **_: Any) -> None:
    """The corpus's test lines have new domain labels: its tracks' analyses, with buckets per
    domain, once committed."""
    for track_id in corpus.tracks.values_list("pk", flat=True):
        tasks.analyse_track.delay_on_commit(track_id)


def freeze_analysis(*, tracks: dict[int, dict[str, Any]], **_: Any) -> None:
    """A results version is frozen: each track's analysis (scheme, profile, bootstraps) and the
    analysis of each run of its frozen table (buckets, self-diagnosis, by domain) are kept with
    it as they stand, so the published pages show the analysis that was published
    (``pages.thawed_analysis``, ``pages.thawed_run_analysis``). Every track gains the section,
    ``runs`` empty when it was not analysed: a version without it was frozen before runs were."""
    scores: dict[int, tuple[int, int]] = {}  # score pk -> (track pk, run pk)
    for track_pk, data in tracks.items():
        data["sections"]["analysis"] = {"runs": {}}
        for row in data.get("rows", []):
            scores[row["score"]["pk"]] = (track_pk, row["submission"])
    for analysis in TrackAnalysis.objects.filter(track_id__in=list(tracks)):
        tracks[analysis.track_id]["sections"]["analysis"].update(
            {
                "computed_at": analysis.computed_at.isoformat(),
                "started_at": analysis.started_at.isoformat(),
                **{name: getattr(analysis, name) for name in FROZEN_FIELDS},
            }
        )
    runs = RunAnalysis.objects.filter(score_id__in=list(scores)).defer("resampled_f")
    for run in runs:
        track_pk, submission = scores[run.score_id]
        tracks[track_pk]["sections"]["analysis"]["runs"][str(submission)] = {
            "score": run.score_id,
            "computed_at": run.computed_at.isoformat(),
            **{name: getattr(run, name) for name in FROZEN_RUN_FIELDS},
        }
