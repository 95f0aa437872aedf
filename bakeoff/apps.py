from django.apps import AppConfig


class BakeoffConfig(AppConfig):
    name = "bakeoff"
    verbose_name = "Bakeoffs"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from . import converters
        from .middleware import remember_at_login

        converters.register()  # before any urls.py is read: they use <id:...>

        user_logged_in.connect(remember_at_login, dispatch_uid="bakeoff.remember_at_login")
