from django.apps import AppConfig


class BakeoffConfig(AppConfig):
    name = "bakeoff"
    verbose_name = "Bakeoffs"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from .middleware import remember_at_login

        user_logged_in.connect(remember_at_login, dispatch_uid="bakeoff.remember_at_login")
