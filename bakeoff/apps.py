from django.apps import AppConfig


class BakeoffConfig(AppConfig):
    name = "bakeoff"
    verbose_name = "Bakeoffs"
