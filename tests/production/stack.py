"""The web tier as shipped, started on this machine for tests and benchmarks: nginx with the
configuration in ``deploy/nginx/`` in front of gunicorn.

nginx runs as this (unprivileged) user with a prefix directory of its own (configuration, pid,
logs, temporary files) and a free port; the machine's own nginx service is never touched.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "deploy" / "nginx" / "bakeoff.conf.template"
SETTINGS = REPO / "config" / "gunicorn.py"  # gunicorn's, as every server of the platform runs it
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

MAIN_CONF = """\
worker_processes 1;
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
events { worker_connections 1024; }
http {
    default_type application/octet-stream;
    access_log $prefix/access.log;
    client_body_temp_path $prefix/client_body;
    proxy_temp_path $prefix/proxy;
    fastcgi_temp_path $prefix/fastcgi;
    uwsgi_temp_path $prefix/uwsgi;
    scgi_temp_path $prefix/scgi;
    include $prefix/bakeoff.conf;
}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_process(
    command: list[str],
    log: Path,
    env: dict[str, str] | None = None,
    *,
    append: bool = False,
    new_session: bool = False,
) -> subprocess.Popen[bytes]:
    """``command`` run from the repository, its output in ``log``; ``env`` on top of this process's
    environment (PYTHONPATH the repository's). ``new_session``: in a session of its own, so that
    it can be killed whole."""
    with log.open("ab" if append else "wb") as out:
        return subprocess.Popen(
            command,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=new_session,
        )


def wait_until_ready(
    process: subprocess.Popen[bytes],
    log: Path,
    ready: Callable[[], bool],
    timeout: float,
    step: float = 0.2,
) -> None:
    """Until ``ready()``; the log in the error when the process exits first or time runs out."""
    deadline = time.monotonic() + timeout
    while not ready():
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited:\n{log.read_text(errors='replace')}")
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"{process.args!r} not ready in {timeout} s:\n{log.read_text(errors='replace')}"
            )
        time.sleep(step)


def answers_http(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except urllib.error.HTTPError:
        return True  # it answers
    except OSError:
        return False


def listens(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def logged(log: Path, text: str) -> Callable[[], bool]:
    """Whether ``text`` is in ``log`` yet (a worker's "ready.")."""
    return lambda: text in log.read_text(errors="replace")


def database_url() -> str:
    """The test database, for the processes a test starts."""
    from django.db import connection

    db = connection.settings_dict
    user = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def platform_environment(broker: str, prefix: str, directory: Path, **more: str) -> dict[str, str]:
    """The environment of a platform of the test's own (its web tier, its workers): the test
    database, ``broker`` with queues named with ``prefix``, its files under ``directory``;
    production settings, over plain HTTP on 127.0.0.1. ``more`` is added."""
    return {
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": broker,
        "BAKEOFF_QUEUE_PREFIX": prefix,
        "MEDIA_ROOT": str(directory / "media"),
        "BAKEOFF_VAR_DIR": str(directory / "var"),
        "BAKEOFF_CACHE_DIR": str(directory / "cache"),
        "DEBUG": "0",
        "SECRET_KEY": uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        **more,
    }


def render_site(listen: str, upstream: str) -> str:
    """The shipped template with its two names filled in, as envsubst does."""
    return Template(TEMPLATE.read_text()).safe_substitute(
        BAKEOFF_LISTEN=listen, BAKEOFF_UPSTREAM=upstream
    )


def nginx_available() -> bool:
    return Path(NGINX).is_file() and os.access(NGINX, os.X_OK)


def stop(process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def stop_all(*stops: Callable[[], object]) -> None:
    """Calls every one of ``stops`` (the ``stop`` of a stack's parts) at the same time: a Celery
    worker takes a second or two to shut down (its pool's threads poll), and stopping the parts
    one after the other added those seconds up."""
    threads = [threading.Thread(target=each) for each in stops]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


@dataclass
class Nginx:
    """``nginx -p PREFIX`` in the foreground, proxying ``port`` to ``upstream``."""

    prefix: Path
    port: int
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, prefix: Path, upstream: str, port: int | None = None) -> Nginx:
        port = port or free_port()
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "bakeoff.conf").write_text(render_site(f"127.0.0.1:{port}", upstream))
        main = Template(MAIN_CONF).substitute(prefix=prefix)
        if os.geteuid() == 0:
            # nginx started by root runs its workers as nobody, who could not reach the proxy
            # cache's folder under the prefix (pytest keeps its temporary folders to their owner)
            main = "user root;\n" + main
        (prefix / "nginx.conf").write_text(main)
        log = prefix / "error.log"
        command = [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(log)]
        process = start_process([*command, "-g", "daemon off;"], prefix / "stderr.log")
        wait_until_ready(process, prefix / "stderr.log", lambda: listens(port), 20, step=0.1)
        return cls(prefix, port, process)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        stop(self.process)


@dataclass
class Gunicorn:
    """``gunicorn -c config/gunicorn.py config.wsgi`` with sync workers, as the Dockerfile runs
    it."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @classmethod
    def start(
        cls,
        env: dict[str, str],
        log: Path,
        workers: int = 2,
        options: tuple[str, ...] = (),
        port: int | None = None,
    ) -> Gunicorn:
        """``options``: more of gunicorn's (``--timeout 120``); ``port``: else a free one."""
        port = port or free_port()
        command = [sys.executable, "-m", "gunicorn", "-c", str(SETTINGS), "config.wsgi"]
        process = start_process(
            [*command, "--bind", f"127.0.0.1:{port}", "--workers", str(workers), *options], log, env
        )
        started = cls(port, process, log)
        wait_until_ready(process, log, lambda: answers_http(f"{started.url}/healthz/"), 60)
        return started

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self, timeout: float = 20) -> None:
        stop(self.process, timeout=timeout)


@dataclass
class RedisServer:
    """A redis-server of our own (append-only file, fsync on every write), to stop and start
    again: an outage of the broker without touching the machine's Redis."""

    directory: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.directory.mkdir(parents=True, exist_ok=True)
        log = self.directory / "redis.log"
        server = shutil.which("redis-server") or "redis-server"
        where = ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
        durable = ["--appendonly", "yes", "--appendfsync", "always", "--save", ""]
        self.process = start_process([server, *where, *durable], log, append=True)
        wait_until_ready(self.process, log, self.answers, 20, step=0.1)
        return self

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                return probe.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


def redis_available() -> bool:
    return shutil.which("redis-server") is not None


@dataclass
class CeleryWorker:
    """``celery -A config worker`` in a session of its own (so that it can be killed whole)."""

    name: str
    queues: list[str]
    process: subprocess.Popen[bytes]
    log: Path

    @classmethod
    def start(
        cls,
        name: str,
        queues: list[str],
        env: dict[str, str],
        log: Path,
        concurrency: int = 1,
        hostname: str | None = None,
    ) -> CeleryWorker:
        """``hostname``: the worker's node name before ``@`` (``name`` if not given)."""
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
        options = [f"--concurrency={concurrency}", "-Q", ",".join(queues)]
        quiet = ["--without-gossip", "--without-mingle", "--hostname", f"{hostname or name}@%h"]
        process = start_process([*command, *options, *quiet], log, env, new_session=True)
        return cls(name, queues, process, log)

    def wait_until_ready(self, timeout: float = 90) -> None:
        # a look at the log every 50 ms: a worker's start is waited for often (six times in a
        # smoke run of benchmarks/throughput.py)
        wait_until_ready(self.process, self.log, logged(self.log, "ready."), timeout, step=0.05)

    def kill(self) -> None:
        """SIGKILL to the worker and its pool's children at once, as a crash would."""
        import signal

        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = 30) -> None:
        stop(self.process, timeout=timeout)


@contextlib.contextmanager
def publishing_to(broker_url: str, prefix: str) -> Iterator[None]:
    """This process publishes its tasks to ``broker_url``, on the queues named with ``prefix``
    (those of a worker of the test's own), and again as before afterwards."""
    from config.celery import app as celery_app
    from config.settings import QUEUES, task_routes

    app: Any = celery_app
    queues = {name: prefix + name for name in QUEUES}

    def switch(url: str | None, default_queue: str, routes: Any) -> None:
        # The write URL: celery reads CELERY_BROKER_URL from the environment before its setting.
        app.conf.broker_write_url = url
        app.conf.task_default_queue = default_queue
        app.conf.task_routes = routes
        app.amqp.flush_routes()  # celery caches its router
        app.amqp.router = app.amqp.Router()
        app._after_fork()  # and its connections to the broker

    previous = (
        app.conf.get("broker_write_url"),
        app.conf.task_default_queue,
        app.conf.task_routes,
    )
    switch(broker_url, queues["scoring"], task_routes(queues))
    try:
        yield
    finally:
        switch(*previous)
