"""One settings module, driven by environment variables with safe defaults for the embedded mode.

Embedded (nothing set): SQLite at var/db.sqlite3, Celery tasks run synchronously in the web process
(still enqueued after the transaction commits). ``DATABASE_URL`` switches to PostgreSQL,
``CELERY_BROKER_URL`` to a real broker and separate ``celery -A config worker`` processes.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import dj_email_url
import django_stubs_ext
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

from config.logging import logging_config

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


# Embedded mode: no DATABASE_URL (SQLite, tasks in the web process, one machine, development).
EMBEDDED = "DATABASE_URL" not in os.environ
# Debug pages in the embedded mode only, unless DEBUG says otherwise.
DEBUG = env_bool("DEBUG", EMBEDDED)
# A real secret key outside the embedded mode, or the server refuses to start: it signs sessions,
# password resets and invitation links. Make one with
#   python -c "import secrets; print(secrets.token_urlsafe(50))"
EMBEDDED_SECRET_KEY = "embedded-mode-only-not-secret"
SECRET_KEY = os.environ.get("SECRET_KEY", "" if not EMBEDDED else EMBEDDED_SECRET_KEY)
if not EMBEDDED and (
    SECRET_KEY == EMBEDDED_SECRET_KEY
    or SECRET_KEY.startswith("django-insecure-")
    or len(SECRET_KEY) < 50
    or len(set(SECRET_KEY)) < 5
):
    raise ImproperlyConfigured(
        "DATABASE_URL is set (production) but SECRET_KEY is missing or weak: set it to a random "
        "string of at least 50 characters, for example the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    # The admin, for superusers only (config/admin.py).
    "config.admin.SuperuserAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    # The API's OpenAPI description, generated from its code, and its browsable page with Swagger
    # UI served from the sidecar package (nothing loaded from outside, bakeoff/api/schema.py).
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tables2",
    "csp",
    "axes",
    "allauth",
    "allauth.account",
    "bakeoff",
    "leaderboard",
    "analysis",
    "psychometric",
    "notifications",
]

MIDDLEWARE = [
    # First: the time the request reached the application (bakeoff/receipt.py).
    "bakeoff.receipt.ReceiptTimeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header (below), with a nonce per request for inline styles.
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the cookie the language menu sets, else Accept-Language (zh-CN and zh-SG
    # give zh-hans, zh-TW and zh-HK zh-hant); URLs carry no language prefix.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in reader's own language and zone; the API in English whatever the reader asks.
    "bakeoff.middleware.ReaderMiddleware",
    # API answers vary with the credentials and are private when given with some.
    "bakeoff.middleware.PrivateApiMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # A results version frozen by a newer release (after a rollback): 503 that says so.
    "leaderboard.middleware.UnreadableVersionMiddleware",
    # Last: turns a login refused by django-axes into the lockout answer (429, Retry-After).
    "axes.middleware.AxesMiddleware",
]

# HTTPS in production: the session and CSRF cookies travel over HTTPS only, HTTP is redirected to
# HTTPS and browsers are told to use nothing else for a year (HSTS). Behind a proxy that ends TLS
# (nginx), SECURE_PROXY_SSL_HEADER=1 trusts its X-Forwarded-Proto header, which the proxy must set
# itself (docs/deployment.md). Each setting can be turned off by its variable (the test runs and
# docker-compose on 127.0.0.1 serve plain HTTP: SECURE_SSL_REDIRECT=0).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not EMBEDDED)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not EMBEDDED)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if EMBEDDED else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The health check answers over plain HTTP (the proxy's and the orchestrator's probes).
SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]

# Content-Security-Policy (django-csp), in every mode so that development sees what production
# refuses: scripts and style sheets from the site itself, or inline with the request's nonce
# (<style nonce="{{ request.csp_nonce }}">); style attributes are allowed; no plug-ins, no
# framing, forms post to the site only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

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
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
            ],
        },
    },
    # Plain text (the mails' subjects and bodies): nothing is escaped for HTML, so that "Q&A"
    # arrives as typed (notifications/mail.py); the HTML part escapes it once, as it should.
    {
        "NAME": "text",
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"autoescape": False},
    },
]

# Production keeps each process's connection for CONN_MAX_AGE seconds instead of opening one per
# request (a PostgreSQL connection costs a server process and its authentication, some 5 to 15 ms
# on a busy machine: more than a published page read from the cache). A kept connection is
# checked before a request uses it (CONN_HEALTH_CHECKS): after a restart of the database, or a
# network cut, the first query of the next request opens a new one instead of failing. Embedded:
# a connection per request, as runserver's threads come and go.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0" if EMBEDDED else "60")),
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
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
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth): sign-up with a verified e-mail address, log in by e-mail or user
# name, password change and reset by e-mail, e-mail change. Failed logins are rate-limited per
# address and per IP (allauth's defaults, in the cache); a reset never says whether an address
# has an account.
AUTHENTICATION_BACKENDS = [
    # First: refuses every login of an account locked out from this address (django-axes).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_ADAPTER = "config.accounts.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"email", "username"}
# No user name at sign-up: allauth names the account after the address (made unique), so the
# sign-up page never tells whether a name exists; the account page changes it (UserNameForm).
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Bakeoff] "
# Every failed login (the pages, the admin) is recorded by django-axes (AccessAttempt and
# AccessFailureLog in the database, shown to superusers in the admin); after AXES_FAILURE_LIMIT
# failures for one account from one address, logins of that account from that address are
# answered 429 with Retry-After for AXES_COOLOFF_TIME (config/ratelimits.py). Behind the proxy,
# the address is the one the proxy saw (bakeoff/ratelimit.py, BAKEOFF_TRUSTED_PROXIES).
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_USERNAME_CALLABLE = "config.ratelimits.login_name"
AXES_CLIENT_IP_CALLABLE = "bakeoff.ratelimit.client_ip"
AXES_LOCKOUT_CALLABLE = "config.ratelimits.locked_out"
AXES_SENSITIVE_PARAMETERS = ["password", "password1", "password2"]
# Failed API token authentications per client address, and uploads per site (pages and API),
# "count/seconds": over either, 429 with Retry-After (bakeoff/ratelimit.py).
BAKEOFF_RATE_LIMITS = {
    "token_failures": os.environ.get("BAKEOFF_TOKEN_FAILURE_LIMIT", "20/300"),
    "uploads": os.environ.get("BAKEOFF_UPLOAD_LIMIT", "30/60"),
}
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,10/5m/key",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "signup": "20/m/ip",
    "confirm_email": "1/3m/key",
}

LANGUAGE_CODE = "en"
# The interface's languages (docs/glossary.md has the terms chosen for both Chinese scripts). The
# catalogues are locale/*/LC_MESSAGES/django.po; their .mo files are built, never committed (make
# messages, which make demo, make check and make test run; tests/conftest.py builds stale ones).
LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Times are stored and computed in UTC; pages show them in the bakeoff's zone, in UTC and in the
# reader's own zone (bakeoff.middleware.ReaderMiddleware activates it).
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

# Stored files (corpora, gold versions, runs) go through Django's storage API only, never by path:
# the local file system under MEDIA_ROOT in embedded mode, S3-compatible object storage
# (django-storages with boto3) when AWS_STORAGE_BUCKET_NAME is set, so that web and workers on
# different machines share them. Credentials come from boto3's usual sources (AWS_ACCESS_KEY_ID
# and AWS_SECRET_ACCESS_KEY in the environment, or an instance role).
AWS_STORAGE_BUCKET_NAME = os.environ.get("AWS_STORAGE_BUCKET_NAME", "")


def s3_storage(bucket: str, **options: object) -> dict[str, object]:
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            "location": os.environ.get("AWS_LOCATION", ""),
            "default_acl": None,  # the bucket's own policy: private
            "file_overwrite": False,  # a new name for every file, as on the file system
            **options,
        },
    }


STORAGES = {
    "default": (
        s3_storage(AWS_STORAGE_BUCKET_NAME)
        if AWS_STORAGE_BUCKET_NAME
        # A write that fails (a full disk) removes what it wrote (config/storage.py).
        else {"BACKEND": "config.storage.CleanFileSystemStorage"}
    ),
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# What each process builds from stored files and keeps for itself (the gold index), keyed by
# checksums and rebuilt when missing: local to the machine, never shared.
BAKEOFF_CACHE_DIR = Path(os.environ.get("BAKEOFF_CACHE_DIR", VAR_DIR / "cache"))

# Uploads larger than this are refused while being read (runs, corpus files).
BAKEOFF_MAX_UPLOAD_BYTES = int(os.environ.get("BAKEOFF_MAX_UPLOAD_BYTES", str(64 << 20)))
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 << 20
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 << 20
# The addresses (or networks, 10.0.0.0/8) of the reverse proxies whose X-Request-Start header gives
# a request's receipt time (deploy/nginx/, docs/deployment.md); nobody's by default.
BAKEOFF_TRUSTED_PROXIES = env_list("BAKEOFF_TRUSTED_PROXIES", "")
# A submission left in queued/scoring longer than this is queued again by the sweep.
BAKEOFF_STUCK_AFTER_SECONDS = int(os.environ.get("BAKEOFF_STUCK_AFTER_SECONDS", "900"))
# A worker scoring a run holds a lease on it, renewed every third of this while it scores; a run
# whose lease ran out (its worker died) is queued again by the recovery loop of any worker.
BAKEOFF_SCORING_LEASE_SECONDS = int(os.environ.get("BAKEOFF_SCORING_LEASE_SECONDS", "30"))
# Every worker runs a recovery loop this often (seconds): tasks waiting in the outbox are
# published (the broker was away), runs whose worker died are queued again (config/celery.py).
# 0: no loop (the test suite's shared workers, which must not take other tests' runs).
# A run still queued this long after its task was sent, while the scoring queue is empty, had its
# message in a worker that died before starting it: the loop publishes its task again.
BAKEOFF_REPUBLISH_QUEUED_AFTER_SECONDS = int(
    os.environ.get("BAKEOFF_REPUBLISH_QUEUED_AFTER_SECONDS", "30")
)
BAKEOFF_RECOVERY_INTERVAL = float(os.environ.get("BAKEOFF_RECOVERY_INTERVAL", "3"))
# A submission that has been picked up this many times without finishing is failed.
BAKEOFF_MAX_SCORING_ATTEMPTS = int(os.environ.get("BAKEOFF_MAX_SCORING_ATTEMPTS", "3"))
# Resamples of the sentences for bucket intervals and paired bootstraps
# (docs/measures/bootstrap.md).
ANALYSIS_BOOTSTRAP_SAMPLES = int(os.environ.get("ANALYSIS_BOOTSTRAP_SAMPLES", "1000"))

# The rate limiters' counters live in the cache: shared by every web process once CACHE_URL names
# a Redis database (redis://host:6379/6); per process otherwise. A cache whose Redis is away
# degrades to per-process counting and never fails a request (config/cache.py).
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": (
        {
            "BACKEND": "config.cache.DegradingRedisCache",
            "LOCATION": CACHE_URL,
            # A Redis that answers slowly is as good as away: a cache call waits 0.5 s at most.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Published results (leaderboard/published.py, docs/deployment.md, "Published pages"): the bytes of
# a published page, export or plot are kept in the cache above per results version, language,
# zone and viewer class (0 turns that off: every request renders, as before issue 25); anonymous
# readers' copies may be kept by the proxy for PUBLISHED_MAX_AGE seconds, and served
# PUBLISHED_STALE_SECONDS longer while it fetches a fresh one.
BAKEOFF_PUBLISHED_CACHE = env_bool("BAKEOFF_PUBLISHED_CACHE", True)
BAKEOFF_PUBLISHED_MAX_AGE = int(os.environ.get("BAKEOFF_PUBLISHED_MAX_AGE", "30"))
BAKEOFF_PUBLISHED_STALE_SECONDS = int(os.environ.get("BAKEOFF_PUBLISHED_STALE_SECONDS", "30"))

# Mail. EMAIL_URL names the server (smtp://user:password@host:587/?tls=True, smtp+ssl://...,
# see dj-email-url); without it every mail is written to a file in var/mail/.
EMAIL_URL = os.environ.get("EMAIL_URL", "")
_email = dj_email_url.parse(EMAIL_URL) if EMAIL_URL else {}
EMAIL_BACKEND = _email.get("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = _email.get("EMAIL_FILE_PATH") or str(VAR_DIR / "mail")
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
# A server that does not answer must not hold a worker for ever.
EMAIL_TIMEOUT = _email.get("EMAIL_TIMEOUT") or int(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get(
    "DEFAULT_FROM_EMAIL", _email.get("DEFAULT_FROM_EMAIL") or "Bakeoff <bakeoff@localhost>"
)
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# The site's address, for the links in mail (a task that sends one has no request).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token authentication, with a limit on failures per client address.
        "bakeoff.api.authentication.LimitedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON nested at most 32 deep, checked before the decoder recurses (bakeoff/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "bakeoff.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Every error of the API carries a stable machine-readable "code" beside its English "detail".
    "EXCEPTION_HANDLER": "bakeoff.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # A run's path parameter keeps its name (pk): the schema names what the URLs name.
    "SCHEMA_COERCE_PATH_PK": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Bakeoff API",
    "DESCRIPTION": (
        "The REST API of the Bakeoff platform for scripts: authenticate with your personal token "
        "(`Authorization: Token ...`, from your account page). Every error is a JSON object with "
        "a stable `code`, an English `detail` and a `message` in the request's Accept-Language "
        "(docs/api-errors.md)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Every operation may answer the errors of docs/api-errors.md (bakeoff/error_codes.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "bakeoff.api.schema.add_error_answers",
    ],
}

# Celery. Without a broker, tasks run synchronously ("eager") in the process that enqueues them.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = env_bool("CELERY_TASK_EAGER_PROPAGATES", False)
if not CELERY_BROKER_URL:
    # With its host named: kombu warns "No hostname was supplied" on each connection to a URL
    # without one, a warning make demo printed for nothing.
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# One queue per kind of work, so that a long task never holds the workers that short ones need:
# run a worker per queue (`celery -A config worker -Q scoring`, ... ; README, docker-compose.yml).
#   scoring    uploads and re-scores: seconds each, and what participants wait for at a deadline
#   analysis   buckets and bootstraps, balanced scores and the re-ranking they bring
#   committee  committee members training (minutes each) and the assembly of their votes
#   mail       e-mail to people
# BAKEOFF_QUEUE_PREFIX puts every name in a namespace of its own (tests share a broker).
BAKEOFF_QUEUE_PREFIX = os.environ.get("BAKEOFF_QUEUE_PREFIX", "")
QUEUES = {
    name: BAKEOFF_QUEUE_PREFIX + name for name in ("scoring", "analysis", "committee", "mail")
}


def task_routes(queues: dict[str, str]) -> dict[str, dict[str, str]]:
    return {
        "bakeoff.tasks.*": {"queue": queues["scoring"]},
        "analysis.tasks.*": {"queue": queues["analysis"]},
        # published pages rendered for their first readers: background work, as analyses are
        "leaderboard.tasks.*": {"queue": queues["analysis"]},
        "psychometric.tasks.balance_score": {"queue": queues["analysis"]},
        "psychometric.tasks.apply_committee": {"queue": queues["analysis"]},
        "psychometric.tasks.*": {"queue": queues["committee"]},
        "notifications.tasks.*": {"queue": queues["mail"]},
    }


CELERY_TASK_ROUTES = task_routes(QUEUES)
# Mail is sent by the tasks of this queue (notifications.mail names it when it sends one).
MAIL_QUEUE = os.environ.get("CELERY_MAIL_QUEUE", QUEUES["mail"])
CELERY_TASK_DEFAULT_QUEUE = QUEUES["scoring"]
# No task may run longer than this (a committee member on the largest corpus is the longest: CRF
# training on a 30% sample); the worker kills one that does, and its subject's sweep takes it up.
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", "3600"))
# A task taken but not acknowledged (acks_late: acknowledged once done) goes back to the queue
# after this long, as if its worker had died: twice the longest task, so none runs twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * CELERY_TASK_TIME_LIMIT}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-submissions": {
        "task": "bakeoff.tasks.sweep_stuck_submissions",
        "schedule": 300.0,
    },
    # Data released, deadline reminders, results public: mailed within five minutes.
    "announce-milestones": {
        "task": "bakeoff.tasks.announce_milestones",
        "schedule": 300.0,
    },
}

# Logs go to stderr: JSON lines in production (a log collector reads them), text in the embedded
# mode; server errors with their traceback, path and user (config/logging.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if EMBEDDED else "json")
LOGGING = logging_config(LOG_FORMAT, os.environ.get("LOG_LEVEL", "INFO"))
