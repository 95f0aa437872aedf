"""The production path: PostgreSQL, Redis, S3-compatible object storage and a real
``celery -A config worker`` process.

The worker shares nothing with this (web) process but the database, the broker and the bucket:
each has its own MEDIA_ROOT and its own cache, and the files live in moto's standalone S3 server,
started on 127.0.0.1 for the session.

These tests run when the suite itself runs on that path (``DATABASE_URL`` to PostgreSQL and
``CELERY_BROKER_URL`` to Redis, as ``make test`` does in its second pass); otherwise they skip and
say why.
"""

from __future__ import annotations

import os
import socket
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.tools import missing_tool

from .smtp import SMTPServer, smtp_server  # noqa: F401
from .stack import CeleryWorker, database_url, free_port, start_process, stop, wait_until_ready

REPO = Path(__file__).resolve().parents[2]
ICWB2 = Path(os.environ.get("ICWB2_PATH", REPO.parent / "shared" / "data" / "icwb2"))
# The queues' prefix of the workers while they run (they start with the first test that needs
# them).
RUNNING: list[str] = []


def _not_on_the_production_path() -> str | None:
    """Why this run of the suite is not on the production path (the SQLite pass): its tests skip
    here and run in the PostgreSQL pass."""
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        return "the suite runs on SQLite: set DATABASE_URL=postgres://... for the production path"
    return None


def _broker_missing() -> str | None:
    """Why the production path's broker cannot be used, on the production path: a missing
    service, which fails the tests where tools are required (tests/tools.py)."""
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        return "no Redis broker: set CELERY_BROKER_URL=redis://127.0.0.1:6379/5"
    try:
        import redis

        redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=2).ping()
    except Exception as error:
        return f"Redis at {settings.CELERY_BROKER_URL} does not answer ({error})"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    production = [item for item in items if "production" in item.keywords]
    if not production:
        return
    reason = _not_on_the_production_path()
    if reason:
        for item in production:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def production_services(request: pytest.FixtureRequest) -> None:
    """On the production path, a broker that does not answer skips its tests, or fails them where
    tools are required (.ci/run): the pass must not go green without the service it exercises."""
    if "production" in request.keywords and _not_on_the_production_path() is None:
        require_broker()


def require_broker() -> None:
    missing = _broker_missing()
    if missing:
        missing_tool(missing)


@pytest.fixture
def icwb2_data() -> Path:
    """The SIGHAN 2005 release, for the tests that read it (a data skip, never a failure: the data
    is not the project's to install)."""
    if not ICWB2.is_dir():
        pytest.skip(f"icwb2-data not found at {ICWB2} (../shared is absent here)")
    return ICWB2


@dataclass(frozen=True)
class ObjectStorage:
    """An S3-compatible server on this machine, with one bucket for the session."""

    endpoint: str
    bucket: str
    key: str = "testing"
    secret: str = "testing"
    region: str = "us-east-1"

    def environment(self) -> dict[str, str]:
        """What a process's environment says to use it (the README's configuration)."""
        return {
            "AWS_STORAGE_BUCKET_NAME": self.bucket,
            "AWS_S3_ENDPOINT_URL": self.endpoint,
            "AWS_S3_REGION_NAME": self.region,
            "AWS_ACCESS_KEY_ID": self.key,
            "AWS_SECRET_ACCESS_KEY": self.secret,
        }

    def storages(self) -> dict[str, Any]:
        """The STORAGES setting those variables give (config.settings.s3_storage)."""
        from config.settings import s3_storage

        default = s3_storage(
            self.bucket,
            endpoint_url=self.endpoint,
            region_name=self.region,
            access_key=self.key,
            secret_key=self.secret,
        )
        return {**settings.STORAGES, "default": default}

    def client(self) -> Any:
        import boto3

        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=self.region,
            aws_access_key_id=self.key,
            aws_secret_access_key=self.secret,
        )

    def create_bucket(self) -> bool:
        """Whether the bucket could be created (the server answers)."""
        try:
            self.client().create_bucket(Bucket=self.bucket)
        except Exception:
            return False
        return True

    def keys(self) -> list[str]:
        listed = self.client().list_objects_v2(Bucket=self.bucket)
        return [item["Key"] for item in listed.get("Contents", [])]


@pytest.fixture(scope="session")
def object_storage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ObjectStorage]:
    """moto's standalone S3 server on 127.0.0.1, as a subprocess, for the session."""
    pytest.importorskip("moto.server", reason="moto[server] is not installed (requirements-dev)")
    port = free_port()
    log = tmp_path_factory.mktemp("s3") / "moto.log"
    process = start_process(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)], log
    )
    storage = ObjectStorage(endpoint=f"http://127.0.0.1:{port}", bucket="bakeoff-test")
    try:
        wait_until_ready(process, log, storage.create_bucket, timeout=30, step=0.3)
        yield storage
    finally:
        stop(process, timeout=10)


@pytest.fixture(scope="session")
def web_media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This process's MEDIA_ROOT: nothing may be written there when the files are in S3."""
    return tmp_path_factory.mktemp("web-media")


@pytest.fixture(scope="session")
def worker_media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The worker's MEDIA_ROOT, another directory: the worker finds files in S3 only."""
    return tmp_path_factory.mktemp("worker-media")


@pytest.fixture(scope="session")
def queue_prefix() -> str:
    """Queues of our own (BAKEOFF_QUEUE_PREFIX): no other worker on this broker takes our tasks."""
    return f"bakeoff-test-{uuid.uuid4().hex[:8]}-"


@pytest.fixture(scope="session")
def queues(queue_prefix: str) -> dict[str, str]:
    from config.settings import QUEUES

    return {name: queue_prefix + name for name in QUEUES}


# One worker process per kind of work, as docker-compose.yml runs them: each consumes its queues.
WORKERS = {"scoring": ("scoring", "mail"), "analysis": ("analysis",), "committee": ("committee",)}


def worker_environment(
    object_storage: ObjectStorage,
    worker_media: Path,
    queue_prefix: str,
    queues: dict[str, str],
    smtp_server: SMTPServer,  # noqa: F811
) -> dict[str, str]:
    """The environment of the session's workers (and of a test's more workers beside them)."""
    return {
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "BAKEOFF_QUEUE_PREFIX": queue_prefix,
        "EMAIL_URL": smtp_server.url,
        **object_storage.environment(),
        "MEDIA_ROOT": str(worker_media),
        "BAKEOFF_CACHE_DIR": str(worker_media.parent / "worker-cache"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CELERY_MAIL_QUEUE": queues["mail"],  # not whatever this process's environment says
        # No recovery loop: these workers share the test database with the platforms that
        # test_outages.py starts, whose waiting tasks and abandoned runs are theirs to take.
        "BAKEOFF_RECOVERY_INTERVAL": "0",
    }


@pytest.fixture(scope="session")
def worker(
    django_db_setup: None,
    django_db_blocker: Any,
    object_storage: ObjectStorage,
    worker_media: Path,
    queue_prefix: str,
    queues: dict[str, str],
    tmp_path_factory: pytest.TempPathFactory,
    smtp_server: SMTPServer,  # noqa: F811
) -> Iterator[dict[str, CeleryWorker]]:
    """Real worker processes on the test database, one per queue, started once for the session.

    Each has the same environment (the bucket, its own MEDIA_ROOT and cache, away from this
    process's), as workers on other machines would; mail goes to the test's SMTP server.
    """

    from config.celery import app
    from config.settings import task_routes

    env = worker_environment(object_storage, worker_media, queue_prefix, queues, smtp_server)
    logs = tmp_path_factory.mktemp("workers")
    started: dict[str, CeleryWorker] = {}
    previous = app.conf.task_default_queue, app.conf.task_routes
    previous_mail_queue = settings.MAIL_QUEUE
    _route(app, queues["scoring"], task_routes(queues))
    settings.MAIL_QUEUE = queues["mail"]
    try:
        for name, consumed in WORKERS.items():
            started[name] = CeleryWorker.start(
                name,
                [queues[q] for q in consumed],
                env,
                logs / f"{name}.log",
                hostname=f"{queue_prefix}{name}",
            )
        for started_worker in started.values():
            started_worker.wait_until_ready()
        RUNNING.append(queue_prefix)
        yield started
    finally:
        if queue_prefix in RUNNING:
            RUNNING.remove(queue_prefix)
        _route(app, *previous)
        settings.MAIL_QUEUE = previous_mail_queue
        for started_worker in started.values():
            started_worker.stop()


def _route(app: Any, default_queue: str, routes: Any) -> None:
    # This process sends tasks to the test's queues (celery caches its router).
    app.conf.task_default_queue = default_queue
    app.conf.task_routes = routes
    app.amqp.flush_routes()
    app.amqp.router = app.amqp.Router()


@pytest.fixture
def media(
    settings: Any, object_storage: ObjectStorage, web_media: Path, tmp_path: Path
) -> ObjectStorage:
    """This process stores its files in the bucket, as the web server does in production."""
    settings.STORAGES = object_storage.storages()
    settings.MEDIA_ROOT = web_media
    settings.BAKEOFF_CACHE_DIR = tmp_path / "web-cache"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return object_storage


@pytest.fixture
def wait_for() -> Callable[..., None]:
    def wait(condition: Callable[[], bool], timeout: float = 90, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.25)
        raise AssertionError(f"timed out after {timeout} s waiting for {what or condition}")

    return wait


@pytest.fixture(autouse=True)
def worker_idle_at_teardown(request: pytest.FixtureRequest) -> Iterator[None]:
    """Let the worker finish what a test set off before its database is flushed.

    A stored score sets off more tasks (the track's analysis, balanced scores), which the worker
    may still be running when the test has seen what it waited for; flushing the database under
    them deadlocks. A transactional test that does not ask for the worker sets it off too once an
    earlier test has started it (a new corpus queues its BASE and TOP on commit). The transactional
    database is set up first, so it is flushed after this wait.
    """
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and bool(marker.kwargs.get("transaction"))
    if "worker" not in request.fixturenames and not (RUNNING and transactional):
        yield
        return
    request.getfixturevalue("transactional_db")
    queues = request.getfixturevalue("queues")
    prefix = request.getfixturevalue("queue_prefix")
    yield
    _wait_until_idle(list(queues.values()), [worker_node(prefix, name) for name in WORKERS])


def worker_node(prefix: str, name: str) -> str:
    """The node name celery gives a session worker (``--hostname prefix+name@%h``)."""
    return f"{prefix}{name}@{socket.gethostname()}"


def _wait_until_idle(queues: list[str], nodes: list[str], timeout: float = 120) -> None:
    import redis

    from config.celery import app

    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    deadline = time.monotonic() + timeout
    idle_checks = 0
    while idle_checks < 2:  # twice in a row: a task taken from the queue shows as active
        # Asking the session's workers by name, inspect returns once all of them answered; a
        # broadcast would wait out the whole timeout for answers that may never come.
        inspector = app.control.inspect(destination=nodes, limit=len(nodes), timeout=1)
        busy = any((inspector.active() or {}).values()) or any(
            (inspector.reserved() or {}).values()
        )
        idle_checks = 0 if busy or any(broker.llen(queue) for queue in queues) else idle_checks + 1
        if time.monotonic() > deadline:
            raise AssertionError(f"the worker was still busy {timeout} s after the test")
        time.sleep(0.3)
