"""Read settings as a fresh process sees them: settings are computed once, at import, from the
environment, so each variant needs its own interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def probe_settings(program: str, *, unset: Iterable[str], **env: str) -> dict[str, object]:
    """Run ``program`` (which prints one JSON object) with ``unset`` removed from this
    process's environment and ``env`` added."""
    dropped = set(unset)
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(REPO))
    out = subprocess.run(
        [sys.executable, "-c", program],
        env=clean,
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    found: dict[str, object] = json.loads(out.stdout)
    return found
