from importlib import import_module

from django.apps import AppConfig


class BakeoffConfig(AppConfig):
    name = "bakeoff"
    verbose_name = "Bakeoffs"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from . import converters
        from .middleware import remember_at_login

        # Every process knows every task: the services queue them by name (bakeoff.task_names).
        import_module(f"{self.name}.tasks")
        converters.register()  # before any urls.py is read: they use <id:...>

        user_logged_in.connect(remember_at_login, dispatch_uid="bakeoff.remember_at_login")
