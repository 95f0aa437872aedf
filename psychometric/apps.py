from django.apps import AppConfig

from bakeoff import sections, signals


class PsychometricConfig(AppConfig):
    name = "psychometric"
    verbose_name = "Psychometric balanced scores"

    def ready(self) -> None:
        # Imported once the models are: the receivers and sections read them.
        from . import receivers
        from .templatetags import psychometric as tags

        signals.score_stored.connect(receivers.balance_score, dispatch_uid="psychometric")
        sections.add("bakeoff.corpus.organiser", tags.corpus_section)
        sections.add("leaderboard.run.figures", tags.run_section)
