"""The shipped production stack: nginx's configuration is valid and buffers, docker-compose
puts it in front of gunicorn, trusted for receipt times from its own network only, and every
server runs gunicorn with the one settings file."""

from __future__ import annotations

import ipaddress
import json
import subprocess
from pathlib import Path
from string import Template
from typing import Any

import pytest

from tests.production.stack import (
    MAIN_CONF,
    NGINX,
    SETTINGS,
    TEMPLATE,
    nginx_available,
    render_site,
)
from tests.tools import missing_tool

REPO = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    loaded: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    return loaded


def test_the_template_buffers_requests_and_limits_slow_clients() -> None:
    text = TEMPLATE.read_text()
    for directive in (
        "proxy_request_buffering on;",
        "client_header_timeout 10s;",
        "client_body_timeout 30s;",
        "client_max_body_size 65600k;",
        'proxy_set_header X-Request-Start "t=${msec}";',
    ):
        assert directive in text
    assert 65600 * 1024 >= (64 << 20) + (64 << 10)  # the run's cap and its envelope


def test_nginx_accepts_the_rendered_configuration(tmp_path: Path) -> None:
    if not nginx_available():
        missing_tool("nginx is not installed (apt-get install nginx)")
    (tmp_path / "bakeoff.conf").write_text(render_site("127.0.0.1:18080", "127.0.0.1:18000"))
    (tmp_path / "nginx.conf").write_text(Template(MAIN_CONF).substitute(prefix=tmp_path))
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


def test_compose_puts_the_proxy_in_front_of_gunicorn() -> None:
    services = compose()["services"]
    proxy, web = services["proxy"], services["web"]
    assert "ports" not in web  # only through the proxy
    assert proxy["ports"] == ["127.0.0.1:8000:80"]
    assert proxy["environment"]["BAKEOFF_UPSTREAM"] == "web:8000"
    assert any("bakeoff.conf.template" in volume for volume in proxy["volumes"])


def test_compose_trusts_receipt_stamps_from_its_own_network_only() -> None:
    loaded = compose()
    subnet = loaded["networks"]["default"]["ipam"]["config"][0]["subnet"]
    trusted = loaded["services"]["web"]["environment"]["BAKEOFF_TRUSTED_PROXIES"]
    assert ipaddress.ip_network(trusted) == ipaddress.ip_network(subnet)
    assert ipaddress.ip_network(subnet).is_private


def test_every_server_of_the_platform_runs_gunicorn_with_its_settings_file() -> None:
    # One owner for gunicorn's settings (config/gunicorn.py): the image, compose, the bare
    # machine's instructions and the production tests' stack all name it.
    settings = "-c config/gunicorn.py config.wsgi"
    dockerfile = (REPO / "Dockerfile").read_text()
    cmd = next(line for line in dockerfile.splitlines() if line.startswith("CMD"))
    assert settings in " ".join(json.loads(cmd.removeprefix("CMD ")))
    web = compose()["services"]["web"]["command"]
    assert f"exec gunicorn {settings}" in " ".join(web)
    assert f"gunicorn {settings}" in (REPO / "docs" / "deployment.md").read_text()
    assert SETTINGS == REPO / "config" / "gunicorn.py"


def test_gunicorn_preloads_the_application() -> None:
    namespace: dict[str, Any] = {}
    exec((REPO / "config" / "gunicorn.py").read_text(), namespace)  # as gunicorn reads it
    assert namespace["preload_app"] is True
    assert namespace["accesslog"] == "-"
    assert namespace["workers"] == 2
