"""Logs as one JSON object a line on stderr, for a log collector: time, level, logger, message,
and for a request's error its method, path, user and status, with the traceback.

Django's own configuration writes ``django.request`` errors to the console only when DEBUG is on;
settings.LOGGING sends them here in every mode, so a server error in production leaves its
traceback in the process's stderr (gunicorn and docker keep it).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any


def _user(request: Any) -> str:
    """The request's user name, "anonymous", or "?" when it cannot be known (a log line must
    not fail, even when the database is what failed)."""
    try:
        user = getattr(request, "user", None)
        if user is None:
            return "?"
        if not user.is_authenticated:
            return "anonymous"
        return str(user.get_username())
    except Exception:
        return "?"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if request is not None and hasattr(request, "path"):
            entry["method"] = getattr(request, "method", "")
            entry["path"] = request.path
            entry["user"] = _user(request)
        status = getattr(record, "status_code", None)
        if status is not None:
            entry["status"] = status
        if record.exc_info:
            entry["exception"] = repr(record.exc_info[1])
            entry["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["traceback"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def logging_config(fmt: str, level: str) -> dict[str, Any]:
    """settings.LOGGING: everything to stderr, as JSON lines (``fmt == "json"``) or as text."""
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "formatter": fmt,
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": "config.logging.JsonFormatter"},
            "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        },
        "handlers": {"stderr": handler},
        # Everything propagates to the root's one handler (and so to pytest's caplog).
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {
            # Django's default sends these to the console only when DEBUG is on: no handler of
            # its own here, so server errors (500, with the traceback) and refused requests reach
            # the root's handler in every mode.
            "django": {"handlers": [], "level": "WARNING", "propagate": True},
            **{
                app: {"level": level}
                for app in ("bakeoff", "leaderboard", "analysis", "psychometric", "notifications")
            },
        },
    }
