from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Mail"

    def ready(self) -> None:
        # Imported once the models are: the receivers and sections read them.
        from . import receivers

        receivers.connect()
