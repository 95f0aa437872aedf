"""A small fixed-window rate limiter in Django's cache, and the client's address behind the proxy.

Used where no library fits the key: failed API token authentications per client address and
uploads per site (logins are django-axes's, config/ratelimits.py). The counters live in the cache:
shared by every web process once CACHE_URL names a Redis database, per process otherwise.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

from .receipt import from_trusted_proxy


@dataclass(frozen=True)
class Limit:
    """At most ``count`` events in a window of ``seconds``."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Limit:
        """``"20/60"``: 20 in 60 seconds."""
        count, seconds = text.split("/")
        return cls(int(count), int(seconds))


def _window(key: str, limit: Limit, now: float) -> tuple[str, int]:
    """The cache key of the current window and the seconds left in it."""
    index = int(now // limit.seconds)
    left = max(1, math.ceil((index + 1) * limit.seconds - now))
    return f"ratelimit:{key}:{limit.seconds}:{index}", left


def retry_after(key: str, limit: Limit, *, now: float | None = None) -> int | None:
    """Seconds to wait if ``key`` has used up its window, else None (counts nothing)."""
    name, left = _window(key, limit, time.time() if now is None else now)
    return left if int(cache.get(name, 0)) >= limit.count else None


def hit(key: str, limit: Limit, *, now: float | None = None) -> int | None:
    """Count one event; answer the seconds to wait if it is over the limit, else None."""
    name, left = _window(key, limit, time.time() if now is None else now)
    cache.add(name, 0, timeout=limit.seconds + 1)
    try:
        count = cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.set(name, 1, timeout=limit.seconds + 1)
        count = 1
    return left if count > limit.count else None


def _address(value: object) -> str | None:
    try:
        return str(ipaddress.ip_address(str(value or "").strip()))
    except ValueError:
        return None


def client_ip(request: Any) -> str | None:
    """The client's address, or None if the request has none: behind a trusted proxy
    (BAKEOFF_TRUSTED_PROXIES), the address the proxy saw, the last of X-Forwarded-For (which the
    shipped nginx appends); else REMOTE_ADDR. django-axes records it with each failed login."""
    meta = getattr(request, "META", {})
    if from_trusted_proxy(meta):
        forwarded = str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")
        proxied = _address(forwarded[-1])
        if proxied is not None:
            return proxied
    return _address(meta.get("REMOTE_ADDR"))


def client_address(request: Any) -> str:
    """The client's address as a key of the limiter ("unknown" when it has none)."""
    return client_ip(request) or "unknown"


def limit_of(name: str) -> Limit:
    """A limit from settings: BAKEOFF_RATE_LIMITS[name], e.g. "20/60"."""
    return Limit.parse(settings.BAKEOFF_RATE_LIMITS[name])


def upload_wait(user: Any, bakeoff: Any) -> int | None:
    """Count one upload of the user's site in the bakeoff (of the user, without a site); answer
    the seconds to wait if the site is over BAKEOFF_RATE_LIMITS["uploads"]."""
    from .access import sites_of  # access imports the models; this module stays light

    site = sites_of(user, bakeoff).values_list("pk", flat=True).first()
    key = f"uploads:site-{site}" if site is not None else f"uploads:user-{user.pk}"
    return hit(key, limit_of("uploads"))


TOO_MANY_UPLOADS = "Too many uploads from your site: wait {seconds} s and send the run again."
