"""Settings: where stored files go (the file system, or S3 when a bucket is named)."""

from __future__ import annotations

from pathlib import Path

from .settings_probe import REPO, probe_settings

PROBE = """
import json
from django.conf import settings
from django.core.files.storage import default_storage
print(json.dumps({
    "backend": settings.STORAGES["default"]["BACKEND"],
    "options": settings.STORAGES["default"].get("OPTIONS", {}),
    "cache": str(settings.BAKEOFF_CACHE_DIR),
}))
"""

S3_VARIABLES = (
    "AWS_STORAGE_BUCKET_NAME",
    "AWS_S3_ENDPOINT_URL",
    "AWS_S3_REGION_NAME",
    "AWS_LOCATION",
    "BAKEOFF_CACHE_DIR",
)


def probe(**env: str) -> dict[str, object]:
    return probe_settings(PROBE, unset=S3_VARIABLES, **env)


def test_files_are_on_the_file_system_by_default(tmp_path: Path) -> None:
    found = probe(BAKEOFF_VAR_DIR=str(tmp_path))
    # The file system, by way of the storage that removes a half-written file (config/storage.py).
    assert found["backend"] == "config.storage.CleanFileSystemStorage"
    assert found["cache"] == str(tmp_path / "cache")


def test_a_bucket_switches_to_s3_compatible_storage(tmp_path: Path) -> None:
    found = probe(
        BAKEOFF_VAR_DIR=str(tmp_path),
        AWS_STORAGE_BUCKET_NAME="bakeoff-files",
        AWS_S3_ENDPOINT_URL="http://127.0.0.1:9000",
        AWS_S3_REGION_NAME="eu-west-1",
        AWS_LOCATION="prod",
        BAKEOFF_CACHE_DIR=str(tmp_path / "local"),
    )
    assert found["backend"] == "storages.backends.s3.S3Storage"
    options = found["options"]
    assert isinstance(options, dict)
    assert options["bucket_name"] == "bakeoff-files"
    assert options["endpoint_url"] == "http://127.0.0.1:9000"
    assert options["region_name"] == "eu-west-1"
    assert options["location"] == "prod"
    assert options["file_overwrite"] is False
    assert options["default_acl"] is None
    assert found["cache"] == str(tmp_path / "local")


def test_no_app_reads_a_stored_file_by_path() -> None:
    """Stored files are opened through the storage (``field.open``), never by a local path."""
    found = []
    for app in ("bakeoff", "leaderboard", "analysis", "psychometric"):
        for source in (REPO / app).rglob("*.py"):
            text = source.read_text(encoding="utf-8")
            for needle in ("MEDIA_ROOT", ".path(", "file.path", "storage.path"):
                if needle in text:
                    found.append(f"{source.relative_to(REPO)}: {needle}")
    assert found == []
