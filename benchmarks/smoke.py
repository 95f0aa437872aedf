"""What the benchmarks' smoke modes share.

Every script in this folder takes ``--smoke``: the same steps on the smallest data, in seconds, so
that the suite runs each one (tests/test_benchmarks.py) and a change that breaks a benchmark fails
CI. A smoke run's figures are printed, never judged: they say nothing about the targets.
"""

from __future__ import annotations


def migrate(*, smoke: bool) -> None:
    """The database's tables. A smoke run makes them from the models at once, without the
    migrations (a minute of a loaded machine's time on SQLite, several seconds on PostgreSQL; the
    suite tests the migrations elsewhere), as pytest-django's ``--no-migrations`` does. What a
    migration adds beside the models (the audit trail's PostgreSQL trigger) is then absent: no
    benchmark measures it."""
    from django.apps import apps
    from django.conf import settings
    from django.core.management import call_command

    if smoke:
        settings.MIGRATION_MODULES = {config.label: None for config in apps.get_app_configs()}
        call_command("migrate", run_syncdb=True, verbosity=0)
    else:
        call_command("migrate", verbosity=0)
