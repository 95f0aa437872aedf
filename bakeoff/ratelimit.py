"""A small sliding-window rate limiter in Django's cache, and the client's address behind the
proxy.

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


def _windows(key: str, limit: Limit, now: float) -> tuple[str, str, float]:
    """The cache keys of the current fixed window and the one before, and how far into the
    current one ``now`` is (0 to 1)."""
    index, into = divmod(now, limit.seconds)
    name = f"ratelimit:{key}:{limit.seconds}"
    return f"{name}:{int(index)}", f"{name}:{int(index) - 1}", into / limit.seconds


def _estimate(previous: int, current: int, into: float) -> float:
    """Events in the sliding window that ends now: all of the current fixed window's, and the
    previous window's in the part of it the sliding window still covers (as if they were spread
    evenly). Unlike a fixed window, no burst gets twice the limit through around a boundary."""
    return previous * (1 - into) + current


def _wait(limit: Limit, previous: int, current: int, into: float) -> int | None:
    """Seconds until the estimate falls below the limit, or None if it is below already."""
    if _estimate(previous, current, into) < limit.count:
        return None
    if current < limit.count:  # the previous window's share fades within this one
        until = 1 - (limit.count - current) / previous
    else:  # this window's own events must fade, in the next one
        until = 1 + (1 - limit.count / current)
    # Rounded first: 40.000000001 s is 40 s, not 41.
    return max(1, math.ceil(round((until - into) * limit.seconds, 6)))


def _counts(current_key: str, previous_key: str) -> tuple[int, int]:
    found = cache.get_many([previous_key, current_key])
    return int(found.get(previous_key, 0)), int(found.get(current_key, 0))


def retry_after(key: str, limit: Limit, *, now: float | None = None) -> int | None:
    """Seconds to wait if ``key`` has used up its sliding window, else None (counts nothing)."""
    current_key, previous_key, into = _windows(key, limit, time.time() if now is None else now)
    previous, current = _counts(current_key, previous_key)
    return _wait(limit, previous, current, into)


def hit(key: str, limit: Limit, *, now: float | None = None) -> int | None:
    """Count one event; answer the seconds to wait if it is over the limit, else None."""
    current_key, previous_key, into = _windows(key, limit, time.time() if now is None else now)
    cache.add(current_key, 0, timeout=2 * limit.seconds + 1)
    try:
        current = cache.incr(current_key)
    except ValueError:  # expired between add and incr
        cache.set(current_key, 1, timeout=2 * limit.seconds + 1)
        current = 1
    previous = int(cache.get(previous_key, 0))
    if _estimate(previous, current, into) <= limit.count:
        return None
    return _wait(limit, previous, current, into) or 1


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
