from django.apps import AppConfig

from bakeoff import signals


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        # Imported once the models are: the receivers read them.
        from bakeoff import published as bakeoff_published

        from . import published, receivers
        from . import signals as leaderboard_signals

        signals.score_stored.connect(receivers.rank_the_track, dispatch_uid="leaderboard")
        signals.run_marked_late.connect(receivers.rank_again, dispatch_uid="leaderboard")
        signals.run_withdrawn.connect(receivers.rank_again, dispatch_uid="leaderboard")
        for published_signal in (
            leaderboard_signals.results_published,
            leaderboard_signals.erratum_published,
        ):
            published_signal.connect(receivers.render_the_version, dispatch_uid="leaderboard")
        bakeoff_published.register(published.read)
        bakeoff_published.register_versions(published.versions_showing)
