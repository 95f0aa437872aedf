from importlib import import_module

from django.apps import AppConfig

from bakeoff import sections, signals
from leaderboard import signals as leaderboard_signals


class PsychometricConfig(AppConfig):
    name = "psychometric"
    verbose_name = "Psychometric balanced scores"

    def ready(self) -> None:
        # Imported once the models are: the receivers and sections read them.
        from . import frozen, receivers
        from .templatetags import psychometric as tags

        import_module(f"{self.name}.tasks")  # every process knows them: services queue them by name
        signals.score_stored.connect(receivers.balance_score, dispatch_uid="psychometric")
        leaderboard_signals.results_freezing.connect(
            frozen.freeze_balanced, dispatch_uid="psychometric"
        )
        sections.add("bakeoff.corpus.organiser", tags.corpus_section)
        sections.add("leaderboard.run.figures", tags.run_section)
        sections.add("leaderboard.erratum.changes", tags.erratum_section)
