"""Settings: the embedded default, and the environment variables that switch to production."""

from __future__ import annotations

from pathlib import Path

from .settings_probe import probe_settings

PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "name": str(settings.DATABASES["default"]["NAME"]),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "debug": settings.DEBUG,
}))
"""


def probe(**env: str) -> dict[str, object]:
    return probe_settings(PROBE, unset=("DATABASE_URL", "CELERY_BROKER_URL", "DEBUG"), **env)


def test_the_embedded_default_is_sqlite_with_synchronous_tasks(tmp_path: Path) -> None:
    found = probe(BAKEOFF_VAR_DIR=str(tmp_path))
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"] == str(tmp_path / "db.sqlite3")
    assert found["eager"] is True


def test_database_url_and_broker_switch_to_production() -> None:
    found = probe(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/x",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/5",
        SECRET_KEY="a-real-secret-for-this-probe-" + "x1y2z3" * 6,
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["eager"] is False
    assert found["broker"] == "redis://127.0.0.1:6379/5"
    assert found["debug"] is False


def test_the_embedded_broker_connects_without_a_warning(tmp_path: Path) -> None:
    program = """
import json, logging, django
django.setup()
from config.celery import app
said = []
class Keep(logging.Handler):
    def emit(self, record): said.append(record.getMessage())
logging.getLogger("kombu").addHandler(Keep())
app.connection_for_write().info()
print(json.dumps({"said": said}))
"""
    found = probe_settings(
        program, unset=("DATABASE_URL", "CELERY_BROKER_URL"), BAKEOFF_VAR_DIR=str(tmp_path)
    )
    assert found["said"] == []  # not "No hostname was supplied" in make demo's output
