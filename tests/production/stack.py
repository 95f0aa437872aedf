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
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from string import Template

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "deploy" / "nginx" / "bakeoff.conf.template"
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


def render_site(listen: str, upstream: str) -> str:
    """The shipped template with its two names filled in, as envsubst does."""
    return Template(TEMPLATE.read_text()).safe_substitute(
        BAKEOFF_LISTEN=listen, BAKEOFF_UPSTREAM=upstream
    )


def nginx_available() -> bool:
    return Path(NGINX).is_file() and os.access(NGINX, os.X_OK)


def wait_for_http(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer in {timeout} s:\n{log.read_text(errors='replace')}")


def stop(process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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
        (prefix / "nginx.conf").write_text(Template(MAIN_CONF).substitute(prefix=prefix))
        log = prefix / "error.log"
        with (prefix / "stderr.log").open("wb") as out:
            process = subprocess.Popen(
                [
                    NGINX,
                    "-p",
                    str(prefix),
                    "-c",
                    str(prefix / "nginx.conf"),
                    "-e",
                    str(log),
                    "-g",
                    "daemon off;",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    "nginx exited:\n" + (prefix / "stderr.log").read_text(errors="replace")
                )
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        return cls(prefix, port, process)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        stop(self.process)


@dataclass
class Gunicorn:
    """``gunicorn config.wsgi`` with sync workers, as the Dockerfile runs it."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @classmethod
    def start(cls, env: dict[str, str], log: Path, workers: int = 2) -> Gunicorn:
        port = free_port()
        with log.open("wb") as out:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "config.wsgi",
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--workers",
                    str(workers),
                    "--access-logfile",
                    "-",
                ],
                cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO), **env},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        started = cls(port, process, log)
        wait_for_http(f"{started.url}/healthz/", process, log, timeout=60)
        return started

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        stop(self.process)


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
        with (self.directory / "redis.log").open("ab") as out:
            self.process = subprocess.Popen(
                [
                    shutil.which("redis-server") or "redis-server",
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--dir",
                    str(self.directory),
                    "--appendonly",
                    "yes",
                    "--appendfsync",
                    "always",
                    "--save",
                    "",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((self.directory / "redis.log").read_text(errors="replace"))
            time.sleep(0.1)

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
        cls, name: str, queues: list[str], env: dict[str, str], log: Path, concurrency: int = 1
    ) -> CeleryWorker:
        with log.open("wb") as out:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--loglevel=INFO",
                    f"--concurrency={concurrency}",
                    "-Q",
                    ",".join(queues),
                    "--without-gossip",
                    "--without-mingle",
                    "--hostname",
                    f"{name}@%h",
                ],
                cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO), **env},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return cls(name, queues, process, log)

    def wait_until_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited:\n{self.log.read_text(errors='replace')}")
            if "ready." in self.log.read_text(errors="replace"):
                return
            time.sleep(0.2)
        raise RuntimeError(f"worker not ready in {timeout} s:\n{self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL to the worker and its pool's children at once, as a crash would."""
        import signal

        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        stop(self.process, timeout=30)
