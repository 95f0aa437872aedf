from django.apps import AppConfig


class PsychometricConfig(AppConfig):
    name = "psychometric"
    verbose_name = "Psychometric balanced scores"
