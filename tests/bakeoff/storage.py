"""What the media root holds that no row names: the files a failed write left behind."""

from __future__ import annotations

from pathlib import Path

from django.apps import apps
from django.db import models


def named_files() -> set[str]:
    """The name of every file a row of any model names, in any file field."""
    names: set[str] = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if isinstance(field, models.FileField):
                stored = model._default_manager.exclude(**{field.name: ""})
                names |= {str(n) for n in stored.values_list(field.name, flat=True) if n}
    return names


def orphans(media_root: Path) -> set[str]:
    """The files under ``media_root`` that no row names."""
    if not media_root.exists():
        return set()
    stored = {str(p.relative_to(media_root)) for p in media_root.rglob("*") if p.is_file()}
    return stored - named_files()
