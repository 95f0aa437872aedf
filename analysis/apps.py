from django.apps import AppConfig

from bakeoff import sections, signals
from leaderboard import signals as leaderboard_signals


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Fine-grained analysis"

    def ready(self) -> None:
        # Imported once the models are: the receivers and sections read them.
        from . import receivers
        from .templatetags import analysis_tags as tags

        # After the ranking, which the analysis reads: it may be stored after the score's commit.
        leaderboard_signals.track_ranked.connect(receivers.analyse_track, dispatch_uid="analysis")
        signals.bucket_scheme_changed.connect(receivers.analyse_again, dispatch_uid="analysis")
        leaderboard_signals.results_freezing.connect(
            receivers.freeze_analysis, dispatch_uid="analysis"
        )
        signals.domain_labels_changed.connect(receivers.analyse_domains, dispatch_uid="analysis")
        sections.add("leaderboard.run.tabs", tags.run_tab)
        sections.add("leaderboard.track.table", tags.track_bootstrap)
        sections.add("leaderboard.track.end", tags.track_profile)
        sections.add("leaderboard.bakeoff.summary", tags.criterion)
