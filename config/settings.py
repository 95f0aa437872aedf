"""One settings module, driven by environment variables with safe defaults for the embedded mode.

Embedded (nothing set): SQLite at var/db.sqlite3, Celery tasks run synchronously in the web process
(still enqueued after the transaction commits). ``DATABASE_URL`` switches to PostgreSQL,
``CELERY_BROKER_URL`` to a real broker and separate ``celery -A config worker`` processes.
"""

import os
from pathlib import Path

import dj_database_url
import django_stubs_ext

# Django's generic classes (ModelAdmin[Bakeoff], ModelForm[Bakeoff]) subscripted at run time as
# the type checker reads them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("BAKEOFF_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Debug pages in the embedded mode only, unless DEBUG says otherwise.
DEBUG = env_bool("DEBUG", "DATABASE_URL" not in os.environ)
SECRET_KEY = os.environ.get("SECRET_KEY", "embedded-mode-only-not-secret")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_tables2",
    "bakeoff",
    "leaderboard",
    "analysis",
    "psychometric",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
VAR_DIR.mkdir(parents=True, exist_ok=True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads of runserver (and the synchronous tasks) share the file: wait, don't fail.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# WhiteNoise serves static files; from the apps' folders too, so collectstatic is optional.
WHITENOISE_USE_FINDERS = True
# Without collectstatic, files are looked up per request (and WhiteNoise does not warn).
WHITENOISE_AUTOREFRESH = DEBUG or not STATIC_ROOT.exists()
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = "/media-not-served/"  # files are served only through views that check access

# Uploads larger than this are refused while being read (runs, corpus files).
BAKEOFF_MAX_UPLOAD_BYTES = int(os.environ.get("BAKEOFF_MAX_UPLOAD_BYTES", str(64 << 20)))
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 << 20
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 << 20
# A submission left in queued/scoring longer than this is queued again by the sweep.
BAKEOFF_STUCK_AFTER_SECONDS = int(os.environ.get("BAKEOFF_STUCK_AFTER_SECONDS", "900"))
# A submission that has been picked up this many times without finishing is failed.
BAKEOFF_MAX_SCORING_ATTEMPTS = int(os.environ.get("BAKEOFF_MAX_SCORING_ATTEMPTS", "3"))
# Resamples of the sentences for bucket intervals and paired bootstraps
# (docs/measures/bootstrap.md).
ANALYSIS_BOOTSTRAP_SAMPLES = int(os.environ.get("ANALYSIS_BOOTSTRAP_SAMPLES", "1000"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}

# Celery. Without a broker, tasks run synchronously ("eager") in the process that enqueues them.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = env_bool("CELERY_TASK_EAGER_PROPAGATES", False)
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "bakeoff")
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-submissions": {
        "task": "bakeoff.tasks.sweep_stuck_submissions",
        "schedule": 300.0,
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "bakeoff": {"handlers": ["console"], "level": "INFO"},
        "analysis": {"handlers": ["console"], "level": "INFO"},
    },
}
