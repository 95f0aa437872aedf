"""When a request reached the platform: the time a deadline is judged by.

Behind the reverse proxy we ship (``deploy/nginx/bakeoff.conf.template``), the proxy stamps each
request with ``X-Request-Start: t=<seconds since the epoch>`` once it holds the whole request,
before it waits for an application worker: a busy server never makes a run late. The header is
believed only from the addresses in ``BAKEOFF_TRUSTED_PROXIES`` (anyone else could write it).
Otherwise the receipt time is when the first middleware saw the request
(``ReceiptTimeMiddleware``, first in ``MIDDLEWARE``). A stamp later than the application's own
time (clocks of two machines) is not believed either: the earlier of the two counts.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from . import clock

HEADER = "HTTP_X_REQUEST_START"
ATTRIBUTE = "bakeoff_seen_at"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ReceiptTimeMiddleware:
    """Stamps the request with the server's time before anything else runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        setattr(request, ATTRIBUTE, clock.now())
        return self.get_response(request)


def received_at(request: Any) -> datetime:
    """The receipt time of ``request`` (a Django or REST framework request)."""
    seen: datetime = getattr(request, ATTRIBUTE, None) or clock.now()
    meta = request.META
    if from_trusted_proxy(meta):
        stamped = parse_request_start(str(meta.get(HEADER, "")))
        if stamped is not None:
            return min(stamped, seen)
    return seen


def from_trusted_proxy(meta: dict[str, Any]) -> bool:
    try:
        address = ipaddress.ip_address(str(meta.get("REMOTE_ADDR") or ""))
    except ValueError:
        return False
    return any(address in network for network in trusted_networks(settings.BAKEOFF_TRUSTED_PROXIES))


@cache
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def trusted_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    return _networks(tuple(entries))


def parse_request_start(value: str) -> datetime | None:
    """``t=1700000000.123`` (nginx's ``$msec``), also in milli- or microseconds; else None."""
    text = value.strip()
    if text.startswith("t="):
        text = text[2:]
    try:
        number = float(text)
    except ValueError:
        return None
    if not number > 0 or number != number or number == float("inf"):
        return None
    while number > 1e11:  # milliseconds or microseconds since the epoch
        number /= 1000
    try:
        return datetime.fromtimestamp(number, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None
