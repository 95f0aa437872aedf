from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        from bakeoff import signals

        from . import receivers

        signals.score_stored.connect(receivers.rank_the_track, dispatch_uid="leaderboard")
